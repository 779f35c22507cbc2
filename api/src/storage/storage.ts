import { randomBytes } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StorageUnavailableError } from '../shared/errors.js';

/** The storage paths (docs/public-api.md#media-files); every object key is one of these folders plus a random file name. */
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

/** A finished upload claimed for one use (a resumable upload's bytes, before they become a mix or a reference). */
export interface FinishedUpload {
  size: number;
  stream(): Readable;
  /** Deletes the upload's bytes and its info file. */
  remove(): Promise<void>;
  /** Gives the claim back unused (the request failed for another reason), so the member can retry without re-uploading. */
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
