import type { Readable } from 'node:stream';
import { type Bucket, Storage } from '@google-cloud/storage';
import { StorageUnavailableError } from '../shared/errors.js';
import { type ByteRange, contentTypeOf, pipeIntoStorage, type StorageDriver, type StoredObject } from './storage.js';

export interface GcsOptions {
  bucket: string;
  /** Another endpoint than Google's (an emulator or a test stand-in); requests to it are sent without credentials. */
  apiEndpoint?: string;
  projectId?: string;
}

const isNotFound = (error: unknown) => (error as { code?: number }).code === 404;

/**
 * Objects in a Google Cloud Storage bucket under the same keys as on disk. An object appears only when its upload
 * completes, so a failed or abandoned upload leaves nothing. Files are still delivered through our own routes, which
 * decide who may read them; the bucket itself can stay private.
 */
export class GcsStorage implements StorageDriver {
  private readonly bucket: Bucket;

  constructor(
    options: GcsOptions,
    private readonly urlPrefix = '/media',
  ) {
    const storage = new Storage({ apiEndpoint: options.apiEndpoint, projectId: options.projectId });
    this.bucket = storage.bucket(options.bucket);
  }

  async put(key: string, body: Readable | Buffer): Promise<void> {
    const file = this.bucket.file(key);
    const metadata = { contentType: contentTypeOf(key), cacheControl: 'private, max-age=31536000, immutable' };
    if (Buffer.isBuffer(body)) {
      await file.save(body, { resumable: false, metadata }).catch((error: unknown) => {
        throw new StorageUnavailableError(undefined, { cause: error });
      });
      return;
    }
    // A resumable session: the SDK retries interrupted chunks, and the object exists only once the stream ends.
    await pipeIntoStorage(body, file.createWriteStream({ resumable: true, metadata }));
  }

  get(key: string, range?: ByteRange): Readable {
    return this.bucket.file(key).createReadStream(range ? { start: range.start, end: range.end, validation: false } : {});
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const [metadata] = await this.bucket.file(key).getMetadata();
      return { size: Number(metadata.size), modified: new Date(metadata.updated ?? metadata.timeCreated ?? 0) };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.bucket.file(key).delete({ ignoreNotFound: true });
  }

  publicUrl(key: string): string {
    return `${this.urlPrefix}/${key}`;
  }
}
