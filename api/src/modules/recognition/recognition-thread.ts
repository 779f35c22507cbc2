// The main thread's side of the recognition thread (recognition.worker): it starts the worker, sends it the
// fingerprint index and streams audio to it, so the API's event loop only moves bytes while a mix is recognised.
//
// The worker's file sits beside this one: recognition.worker.ts when run from source (tsx, Vitest), .js once compiled.
// A .ts worker gets tsx's loader registered first, since a worker thread does not inherit the main thread's.

import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Fingerprints } from './fingerprint.js';
import type { RawDetection } from './matcher.js';

export type AudioSource = AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

/** Tracks found so far (index track numbers, seconds in the recording). */
export interface ThreadProgress {
  seconds: number;
  detections: number;
  found: { track: number; start: number; end: number }[];
}

export type ThreadRequest =
  | { type: 'reset' }
  | { type: 'rows'; hashes: Uint32Array; tracks: Uint32Array; data: Uint32Array }
  | { type: 'build'; id: number }
  | { type: 'identify'; id: number; progress: boolean }
  | { type: 'fingerprint'; id: number }
  | { type: 'chunk'; id: number; bytes: Uint8Array }
  | { type: 'end'; id: number };

export type ThreadReply =
  | { type: 'built'; id: number; entries: number }
  | { type: 'pull'; id: number }
  | ({ type: 'progress'; id: number } & ThreadProgress)
  | { type: 'detections'; id: number; detections: RawDetection[] }
  | { type: 'fingerprints'; id: number; hashes: Uint32Array; data: Uint32Array; seconds: number }
  | { type: 'failed'; id: number; message: string };

/** Chunks sent ahead of what the worker has taken (64 KB each from a file stream: a few hundred KB in flight). */
const CHUNKS_AHEAD = 4;

interface Pending {
  resolve: (reply: ThreadReply) => void;
  reject: (error: Error) => void;
  onProgress?: (progress: ThreadProgress) => void;
  pull?: () => void;
}

function workerFile(): { url: URL; source: boolean } {
  const here = fileURLToPath(import.meta.url);
  const extension = extname(here);
  return { url: new URL(`./recognition.worker${extension}`, import.meta.url), source: extension === '.ts' };
}

function startWorker(): Worker {
  const { url, source } = workerFile();
  if (!source) return new Worker(url);
  const loader = import.meta.resolve('tsx/esm/api');
  return new Worker(
    `import(${JSON.stringify(loader)}).then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); })`,
    { eval: true },
  );
}

/**
 * One worker thread running the recognition engine. Operations may overlap (each has an id); the worker is started on
 * first use, keeps the process alive only while an operation runs, and is started again (index and all) if it dies.
 */
export class RecognitionThread {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** The index the worker holds, as its loader named it (e.g. the references' version); null before any. */
  private indexVersion: string | null = null;

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker();
    worker.unref();
    worker.on('message', (reply: ThreadReply) => this.receive(reply));
    const fail = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.indexVersion = null;
      for (const pending of this.pending.values()) pending.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`The recognition thread stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private receive(reply: ThreadReply) {
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    if (reply.type === 'pull') pending.pull?.();
    else if (reply.type === 'progress') pending.onProgress?.(reply);
    else {
      this.settle(reply.id);
      if (reply.type === 'failed') pending.reject(new Error(reply.message));
      else pending.resolve(reply);
    }
  }

  private settle(id: number) {
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker?.unref();
  }

  private begin(pending: Omit<Pending, 'resolve' | 'reject'>): { id: number; done: Promise<ThreadReply>; worker: Worker } {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    let resolve!: Pending['resolve'];
    let reject!: Pending['reject'];
    const done = new Promise<ThreadReply>((onResolve, onReject) => {
      resolve = onResolve;
      reject = onReject;
    });
    this.pending.set(id, { ...pending, resolve, reject });
    worker.ref();
    return { id, done, worker };
  }

  /** The index the worker holds (`loadIndex`'s version), or null. */
  get loadedVersion(): string | null {
    return this.indexVersion;
  }

  /** Replaces the worker's index with these rows (batches of parallel arrays; their buffers are handed over). */
  async loadIndex(version: string, batches: AsyncIterable<{ hashes: Uint32Array; tracks: Uint32Array; data: Uint32Array }>) {
    const { id, done, worker } = this.begin({});
    // Rows of a load that failed half-way are dropped first.
    worker.postMessage({ type: 'reset' } satisfies ThreadRequest);
    try {
      for await (const batch of batches) {
        worker.postMessage({ type: 'rows', ...batch } satisfies ThreadRequest, [
          batch.hashes.buffer as ArrayBuffer,
          batch.tracks.buffer as ArrayBuffer,
          batch.data.buffer as ArrayBuffer,
        ]);
      }
    } catch (error) {
      this.settle(id);
      throw error;
    }
    worker.postMessage({ type: 'build', id } satisfies ThreadRequest);
    await done;
    this.indexVersion = version;
  }

  /** The tracks found in a recording (MP3 or WAV bytes), against the index loaded last. */
  async identify(source: AudioSource, onProgress?: (progress: ThreadProgress) => void): Promise<RawDetection[]> {
    const reply = await this.stream(source, { type: 'identify', progress: Boolean(onProgress) }, onProgress);
    if (reply.type !== 'detections') throw new Error(`Unexpected reply ${reply.type}`);
    return reply.detections;
  }

  /** A reference recording's fingerprints (MP3 or WAV bytes). */
  async fingerprint(source: AudioSource): Promise<Fingerprints> {
    const reply = await this.stream(source, { type: 'fingerprint' });
    if (reply.type !== 'fingerprints') throw new Error(`Unexpected reply ${reply.type}`);
    return { hashes: reply.hashes, data: reply.data, seconds: reply.seconds };
  }

  /** Starts an operation and feeds it the source's chunks, a few ahead of what the worker has taken. */
  private async stream(
    source: AudioSource,
    request: { type: 'identify'; progress: boolean } | { type: 'fingerprint' },
    onProgress?: (progress: ThreadProgress) => void,
  ): Promise<ThreadReply> {
    const iterator = (Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]()) as
      | AsyncIterator<Uint8Array>
      | Iterator<Uint8Array>;
    let credit = CHUNKS_AHEAD;
    let wake: (() => void) | null = null;
    const { id, done, worker } = this.begin({
      onProgress,
      pull: () => {
        credit += 1;
        wake?.();
      },
    });
    worker.postMessage({ ...request, id } satisfies ThreadRequest);
    let finished = false;
    const settled = done.finally(() => {
      finished = true;
      wake?.();
    });
    const feed = async () => {
      for (;;) {
        while (credit <= 0 && !finished) await new Promise<void>((resolve) => (wake = resolve));
        if (finished) return;
        const next = await iterator.next();
        if (next.done) break;
        // A copy the worker can own (stream chunks may share a pooled buffer).
        const bytes = new Uint8Array(next.value);
        credit -= 1;
        worker.postMessage({ type: 'chunk', id, bytes } satisfies ThreadRequest, [bytes.buffer]);
      }
      worker.postMessage({ type: 'end', id } satisfies ThreadRequest);
    };
    try {
      await feed();
    } catch (error) {
      // The source failed: the worker's half-read operation is ended and forgotten.
      this.settle(id);
      worker.postMessage({ type: 'end', id } satisfies ThreadRequest);
      throw error;
    }
    await settled;
    return done;
  }

  /** Stops the worker (operations under way fail). */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = null;
    this.indexVersion = null;
    for (const pending of this.pending.values()) pending.reject(new Error('The recognition thread was closed'));
    this.pending.clear();
    await worker.terminate();
  }
}
