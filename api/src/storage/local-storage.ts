import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { StorageUnavailableError } from '../shared/errors.js';
import { FileHandles, LeasedRangeStream } from './file-handles.js';
import { type ByteRange, type InMemoryRange, pipeIntoStorage, type StorageDriver, type StoredObject } from './storage.js';
import type { ZeroCopy } from './zero-copy.js';

const partialPath = (target: string) => `${target}.partial`;

/**
 * Files under DATA_DIR/media; written to `{key}.partial` first so a failed write never leaves a partial object, and
 * read through kept-open handles (see FileHandles). Keys are never written twice, so the partial's name is the key's.
 */
export class LocalStorage implements StorageDriver {
  private readonly files: FileHandles;

  constructor(
    private readonly root: string,
    private readonly urlPrefix = '/media',
    private readonly zeroCopy: ZeroCopy | null = null,
  ) {
    this.files = new FileHandles(zeroCopy);
  }

  /** Paths of keys asked for lately: a seeking listener asks for one file's path with every range. */
  private readonly paths = new Map<string, string>();

  private path(key: string): string {
    let path = this.paths.get(key);
    if (path === undefined) {
      if (this.paths.size >= 1024) this.paths.clear();
      path = join(this.root, key);
      this.paths.set(key, path);
    }
    return path;
  }

  async put(key: string, body: Readable | Buffer): Promise<void> {
    const target = this.path(key);
    const partial = partialPath(target);
    const onDisk = (step: Promise<unknown>) =>
      step.catch((error: unknown) => {
        throw new StorageUnavailableError(undefined, { cause: error });
      });
    try {
      await onDisk(mkdir(dirname(target), { recursive: true }));
      await pipeIntoStorage(body, createWriteStream(partial));
      await onDisk(rename(partial, target));
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }

  get(key: string, range?: ByteRange): Readable {
    return new LeasedRangeStream(this.files, this.path(key), range);
  }

  async readSmallRange(key: string, { start, end }: ByteRange, into: Buffer): Promise<Buffer | null> {
    const lease = await this.files.lease(this.path(key));
    if (!lease) return null;
    try {
      const length = Math.max(0, Math.min(end, lease.info.size - 1) - start + 1);
      const buffer = into.length >= length ? into.subarray(0, length) : Buffer.allocUnsafe(length);
      let filled = 0;
      while (filled < length) {
        const { bytesRead } = await lease.handle.read(buffer, filled, length - filled, start + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return filled < length ? buffer.subarray(0, filled) : buffer;
    } finally {
      lease.release();
    }
  }

  inMemoryRange(key: string, { start, end }: ByteRange): InMemoryRange | null {
    const { zeroCopy } = this;
    if (!zeroCopy) return null;
    const lease = this.files.leaseOpen(this.path(key));
    if (!lease) return null;
    const length = Math.min(end, lease.info.size - 1) - start + 1;
    if (!lease.mapping?.resident(start, length)) {
      lease.release();
      return null;
    }
    return {
      sendTo: (socketFd) => zeroCopy.send(socketFd, lease.handle.fd, start, length),
      release: () => lease.release(),
    };
  }

  openStat(key: string): StoredObject | undefined {
    const lease = this.files.leaseOpen(this.path(key));
    lease?.release();
    return lease?.info;
  }

  async stat(key: string): Promise<StoredObject | null> {
    const lease = await this.files.lease(this.path(key));
    lease?.release();
    return lease?.info ?? null;
  }

  async delete(key: string): Promise<void> {
    await this.files.forget(this.path(key));
    await rm(this.path(key), { force: true });
    await rm(partialPath(this.path(key)), { force: true });
  }

  publicUrl(key: string): string {
    return `${this.urlPrefix}/${key}`;
  }
}
