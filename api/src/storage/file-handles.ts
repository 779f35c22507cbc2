import { type FileHandle, open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { ByteRange, StoredObject } from './storage.js';
import type { FileMapping, ZeroCopy } from './zero-copy.js';

const READ_BYTES = 256 * 1024;

interface OpenFile {
  handle: FileHandle;
  info: StoredObject;
  /** For asking which pages are in memory (see ZeroCopy); null without zero copy. */
  mapping: FileMapping | null;
  users: number;
  lastUsed: number;
  doomed: boolean;
}

export interface FileLease {
  handle: FileHandle;
  info: StoredObject;
  mapping: FileMapping | null;
  release(): void;
}

/**
 * Open files kept for a while, with their size and time: a listener seeking through a mix asks for dozens of ranges
 * of one file, and each then costs one read instead of a stat, an open, a read and a close. Stored files never
 * change under their names, so what was read at open stays true; a deleted file is forgotten at once.
 */
export class FileHandles {
  private readonly files = new Map<string, Promise<OpenFile | null>>();
  /** The same files once open, for closing idle ones without waiting. */
  private readonly ready = new Map<string, OpenFile>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly zeroCopy: ZeroCopy | null = null,
    private readonly maxOpen = 64,
    private readonly idleMs = 30_000,
  ) {
    this.sweeper = setInterval(() => this.closeIdle(Date.now() - this.idleMs), this.idleMs).unref();
  }

  private async openFile(path: string): Promise<OpenFile | null> {
    const handle = await open(path, 'r').catch(() => null);
    if (!handle) return null;
    const stats = await handle.stat();
    if (!stats.isFile()) {
      await handle.close();
      return null;
    }
    return {
      handle,
      info: { size: stats.size, modified: stats.mtime },
      mapping: this.zeroCopy?.map(handle.fd, stats.size) ?? null,
      users: 0,
      lastUsed: Date.now(),
      doomed: false,
    };
  }

  /** The file if it is open already (a request just asked for it), without waiting; else null. Release the lease. */
  leaseOpen(path: string): FileLease | null {
    const file = this.ready.get(path);
    return file && !file.doomed ? this.leaseOf(file) : null;
  }

  /** The open file, or null when there is no such file. Release the lease when done with the handle. */
  async lease(path: string): Promise<FileLease | null> {
    let pending = this.files.get(path);
    if (!pending) {
      pending = this.openFile(path);
      this.files.set(path, pending);
      const opening = pending;
      void opening.then((file) => {
        if (this.files.get(path) !== opening) return;
        if (file) this.ready.set(path, file);
        else this.files.delete(path);
        if (this.ready.size > this.maxOpen) this.closeIdle(Number.POSITIVE_INFINITY, this.ready.size - this.maxOpen);
      });
    }
    const file = await pending;
    return file ? this.leaseOf(file) : null;
  }

  private leaseOf(file: OpenFile): FileLease {
    file.users += 1;
    file.lastUsed = Date.now();
    let released = false;
    return {
      handle: file.handle,
      info: file.info,
      mapping: file.mapping,
      release: () => {
        if (released) return;
        released = true;
        file.users -= 1;
        if (file.doomed && file.users === 0) this.closeFile(file);
      },
    };
  }

  /** Forgets a file (it is being deleted); its handle closes once nobody reads from it. */
  async forget(path: string): Promise<void> {
    const pending = this.files.get(path);
    this.files.delete(path);
    this.ready.delete(path);
    const file = await pending;
    if (file) this.doom(file);
  }

  private doom(file: OpenFile): void {
    file.doomed = true;
    if (file.users === 0) this.closeFile(file);
  }

  private closeFile(file: OpenFile): void {
    file.mapping?.unmap();
    void file.handle.close().catch(() => undefined);
  }

  /** Closes up to `limit` files nobody has used since `usedBefore`, least recently opened first. */
  private closeIdle(usedBefore: number, limit = Number.POSITIVE_INFINITY): void {
    let closed = 0;
    for (const [path, file] of this.ready) {
      if (closed >= limit) break;
      if (file.users > 0 || file.lastUsed >= usedBefore) continue;
      this.files.delete(path);
      this.ready.delete(path);
      this.doom(file);
      closed += 1;
    }
  }

  close(): void {
    clearInterval(this.sweeper);
    for (const path of [...this.files.keys()]) void this.forget(path);
  }
}

/** A byte range of a file read through a leased handle, in reads of up to 256 KiB: constant memory for any range. */
export class LeasedRangeStream extends Readable {
  private lease: FileLease | null = null;
  private position: number;
  private end: number;

  constructor(
    private readonly files: FileHandles,
    private readonly path: string,
    range?: ByteRange,
  ) {
    super({ highWaterMark: READ_BYTES });
    this.position = range?.start ?? 0;
    this.end = range?.end ?? Number.POSITIVE_INFINITY;
  }

  override _construct(callback: (error?: Error | null) => void): void {
    this.files.lease(this.path).then((lease) => {
      if (!lease) return callback(Object.assign(new Error(`No such file: ${this.path}`), { code: 'ENOENT' }));
      this.lease = lease;
      this.end = Math.min(this.end, lease.info.size - 1);
      callback();
    }, callback);
  }

  override _read(): void {
    const length = Math.min(READ_BYTES, this.end - this.position + 1);
    if (length <= 0 || !this.lease) {
      this.push(null);
      return;
    }
    const buffer = Buffer.allocUnsafe(length);
    this.lease.handle.read(buffer, 0, length, this.position).then(
      ({ bytesRead }) => {
        this.position += bytesRead;
        if (bytesRead > 0) this.push(bytesRead < length ? buffer.subarray(0, bytesRead) : buffer);
        if (bytesRead === 0 || this.position > this.end) this.push(null);
      },
      (error: Error) => this.destroy(error),
    );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.lease?.release();
    callback(error);
  }
}
