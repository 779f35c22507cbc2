import { Upload } from 'tus-js-client';
import { authHeaders } from '../lib/auth-headers';
import { readStored, removeStored, writeStored } from '../lib/storage';

/** The API's tus endpoint (api/src/modules/media/resumable-uploads.ts). */
export const TUS_ENDPOINT = '/api/uploads';
/** Bytes per PATCH: a dropped connection costs at most this much again. */
const CHUNK_BYTES = 8 * 1024 * 1024;
/** Where the unfinished upload is remembered, so step 1 can offer to continue it after a reload. */
const PENDING_KEY = 'upload_pending';

/** An upload that has not reached the server whole: its tus address, the file it was for and how far it got. */
export interface PendingUpload {
  url: string;
  fileName: string;
  size: number;
  percent: number;
}

export function readPendingUpload(): PendingUpload | null {
  try {
    const value: unknown = JSON.parse(readStored(PENDING_KEY) ?? 'null');
    if (typeof value !== 'object' || value === null) return null;
    const { url, fileName, size, percent } = value as Record<string, unknown>;
    if (typeof url !== 'string' || !url.startsWith(TUS_ENDPOINT) || typeof fileName !== 'string') return null;
    if (typeof size !== 'number' || typeof percent !== 'number') return null;
    return { url, fileName, size, percent };
  } catch {
    return null;
  }
}

/** Deletes an upload, finished or not, from the server (tus termination); nothing to do when it is gone already. */
export async function terminateUpload(url: string): Promise<void> {
  await Upload.terminate(url, { headers: authHeaders() }).catch(() => undefined);
}

/** Removes an unfinished upload from the server and forgets it here. */
export async function discardPendingUpload(): Promise<void> {
  const pending = readPendingUpload();
  removeStored(PENDING_KEY);
  if (pending) await terminateUpload(pending.url);
}

export interface Mp3UploadHandle {
  /** Resolves with the tus address of the finished upload. */
  done: Promise<string>;
  /** Stops sending and deletes what the server holds of it. */
  cancel(): Promise<void>;
}

/**
 * Sends an MP3 through the tus endpoint. tus-js-client remembers the upload's address per file (name, type, size,
 * modification time) in localStorage, so the same file chosen again after a reload or a dropped connection continues
 * from the offset the server confirms instead of starting over.
 */
export function uploadMp3(file: File, onPercent: (percent: number) => void): Mp3UploadHandle {
  let upload: Upload | null = null;
  const remember = (percent: number) => {
    if (upload?.url) writeStored(PENDING_KEY, JSON.stringify({ url: upload.url, fileName: file.name, size: file.size, percent }));
  };
  const done = new Promise<string>((resolve, reject) => {
    const started = new Upload(file, {
      endpoint: TUS_ENDPOINT,
      chunkSize: CHUNK_BYTES,
      retryDelays: [0, 1000, 3000, 5000, 10000],
      headers: authHeaders(),
      metadata: { filename: file.name, filetype: file.type },
      removeFingerprintOnSuccess: true,
      onUploadUrlAvailable: () => remember(0),
      onProgress: (sent, total) => {
        const percent = total > 0 ? Math.round((sent / total) * 100) : 0;
        onPercent(percent);
        remember(percent);
      },
      onSuccess: () => {
        removeStored(PENDING_KEY);
        if (started.url) resolve(started.url);
        else reject(new Error('The upload finished without an address'));
      },
      onError: (error) => reject(new Error(tusMessage(error))),
    });
    upload = started;
    void started
      .findPreviousUploads()
      .then((previous) => {
        const [latest] = previous;
        if (latest) started.resumeFromPreviousUpload(latest);
        started.start();
      })
      .catch(() => started.start());
  });
  return {
    done,
    cancel: async () => {
      removeStored(PENDING_KEY);
      await upload?.abort(true).catch(() => undefined);
    },
  };
}

/** The server's own words when it refused the upload (a 413 says MP3_RULE.tooLarge), else a plain sentence. */
function tusMessage(error: Error): string {
  const body = 'originalResponse' in error ? (error.originalResponse as { getBody(): string } | null)?.getBody() : undefined;
  if (body && body.length < 200 && !body.trimStart().startsWith('<')) return body.trim();
  return 'The upload stopped: check your connection and try again.';
}
