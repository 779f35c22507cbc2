import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StorageUnavailableError } from '../../shared/errors.js';
import { FileHandles, LeasedRangeStream } from './file-handles.js';
import type { ZeroCopy } from './zero-copy.js';

/** The SPEC §3 storage paths; every object key is one of these folders plus a random file name. */
export const FOLDERS = {
  profileImages: 'user/profile-images',
  mixImages: 'mix/mix-images',
  mixAudio: 'mix/mix-audio',
  trackCovers: 'app-assets/track-covers',
} as const;
export type Folder = (typeof FOLDERS)[keyof typeof FOLDERS];

const FILE_NAME = /^[A-Za-z0-9_-]{8,64}\.[a-z0-9]{2,4}$/;

export function newFileName(extension: string): string {
  return `${randomBytes(16).toString('hex')}.${extension}`;
}

export const isSafeFileName = (fileName: string): boolean => FILE_NAME.test(fileName);

/** Builds a key from a folder and a file name; refuses any name that could reach outside the folder. */
export function objectKey(folder: Folder, fileName: string): string {
  if (!isSafeFileName(fileName)) throw new Error(`Refusing an unsafe file name: ${JSON.stringify(fileName)}`);
  return `${folder}/${fileName}`;
}

/** The folder and file name of a key such as `mix/mix-audio/{file}`; null for anything that is not one of ours. */
export function parseObjectKey(key: string): { folder: Folder; fileName: string } | null {
  const folder = Object.values(FOLDERS).find((candidate) => key.startsWith(`${candidate}/`));
  if (!folder) return null;
  const fileName = key.slice(folder.length + 1);
  return isSafeFileName(fileName) ? { folder, fileName } : null;
}

const CONTENT_TYPES: Record<string, string> = {
  mp3: 'audio/mpeg',
  jpg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** Every stored object was checked by content and named by us, so its extension tells its type. */
export function contentTypeOf(key: string): string {
  return CONTENT_TYPES[key.slice(key.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
}

const partialPath = (target: string) => `${target}.partial`;

export interface StoredObject {
  size: number;
  modified: Date;
}

/**
 * Pipes a body into storage. When the storage side fails (a full disk, an unreachable bucket), the answer is a
 * StorageUnavailableError (503), not the error the failure also put on the body (which a multipart parser would
 * otherwise take for the client's malformed upload); a failing body keeps its own error.
 */
export async function pipeIntoStorage(body: Readable | Buffer, sink: Writable): Promise<void> {
  // A failure on either side is passed to the other (pipeline destroys both with it): the side that failed first is
  // the one whose failure it is.
  // A body that failed (or stopped) before it got here, while the storage prepared, is the body's failure too.
  const failed: { first: 'body' | 'storage' | null } = {
    first: !Buffer.isBuffer(body) && (body.errored || body.destroyed) ? 'body' : null,
  };
  sink.prependListener('error', () => {
    failed.first ??= 'storage';
  });
  if (!Buffer.isBuffer(body)) {
    body.prependListener('error', () => {
      failed.first ??= 'body';
    });
  }
  try {
    await pipeline(Buffer.isBuffer(body) ? [body] : body, sink);
  } catch (error) {
    if (failed.first === 'storage') throw new StorageUnavailableError(undefined, { cause: error });
    throw error;
  }
}

/** Inclusive byte positions, as in HTTP Range. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface InMemoryRange {
  /** Sends what the socket takes now, from the range's start; answers how many bytes went. */
  sendTo(socketFd: number): number;
  release(): void;
}

/**
 * Where media lives. Keys never change content (every upload gets a new random name), which is what lets
 * delivery cache for a year and lets `put` be all-or-nothing: a failed write leaves no object behind.
 */
export interface StorageDriver {
  put(key: string, body: Readable | Buffer): Promise<void>;
  get(key: string, range?: ByteRange): Readable;
  /**
   * A small range's bytes read into `into` (the part of it they fill is returned), where the driver can read them at
   * memory speed (local disk); absent otherwise. Null when there is no such object.
   */
  readSmallRange?(key: string, range: ByteRange, into: Buffer): Promise<Buffer | null>;
  /**
   * The range's bytes ready to go from the file to a socket with no copy, when the driver keeps local files, the file
   * is open (`stat` just opened it) and every page of the range is in memory (see ZeroCopy); null otherwise. Release
   * it once sent.
   */
  inMemoryRange?(key: string, range: ByteRange): InMemoryRange | null;
  stat(key: string): Promise<StoredObject | null>;
  /** `stat` without waiting, where the driver has the object open already (local files); undefined otherwise. */
  openStat?(key: string): StoredObject | undefined;
  /** Deletes the object, and whatever an unfinished write of it left (a process that died while writing it). */
  delete(key: string): Promise<void>;
  publicUrl(key: string): string;
}

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

  private path(key: string): string {
    return join(this.root, key);
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
