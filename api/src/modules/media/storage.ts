import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

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

/** Builds a key from a folder and a file name; refuses any name that could reach outside the folder. */
export function objectKey(folder: Folder, fileName: string): string {
  if (!FILE_NAME.test(fileName)) throw new Error(`Refusing an unsafe file name: ${JSON.stringify(fileName)}`);
  return `${folder}/${fileName}`;
}

export interface StoredObject {
  size: number;
  modified: Date;
}

export interface StorageDriver {
  put(key: string, body: Readable | Buffer): Promise<void>;
  get(key: string, range?: { start: number; end: number }): Readable;
  stat(key: string): Promise<StoredObject | null>;
  delete(key: string): Promise<void>;
  publicUrl(key: string): string;
}

/** Files under DATA_DIR/media; written to a temporary name first so a failed write never leaves a partial object. */
export class LocalStorage implements StorageDriver {
  constructor(
    private readonly root: string,
    private readonly urlPrefix = '/media',
  ) {}

  private path(key: string): string {
    return join(this.root, key);
  }

  async put(key: string, body: Readable | Buffer): Promise<void> {
    const target = this.path(key);
    await mkdir(dirname(target), { recursive: true });
    const partial = `${target}.partial-${randomBytes(4).toString('hex')}`;
    try {
      await pipeline(Buffer.isBuffer(body) ? [body] : body, createWriteStream(partial));
      await rename(partial, target);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }

  get(key: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.path(key), range);
  }

  async stat(key: string): Promise<StoredObject | null> {
    const info = await stat(this.path(key)).catch(() => null);
    return info?.isFile() ? { size: info.size, modified: info.mtime } : null;
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  publicUrl(key: string): string {
    return `${this.urlPrefix}/${key}`;
  }
}
