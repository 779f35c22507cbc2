import { availableParallelism } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Fingerprints } from '../modules/recognition/fingerprint.js';

/**
 * How much nicer than the server a demo world thread runs (on Linux). At +5 the scheduler weighs a server thread three
 * times a demo thread: against the two demo threads of a 2-core machine the server's thread still gets a whole core,
 * while the build, against other programs at the server's priority, keeps a third of its share (+10 would leave it a
 * tenth, and a first start on a busy laptop much longer).
 */
export const DEMO_THREAD_NICENESS = 5;

/** Work for a demo world thread: a mix (rendered, measured, encoded) or a reference (rendered, fingerprinted), by index. */
export type DemoJob = { kind: 'mix'; index: number } | { kind: 'reference'; index: number };
export interface RenderedMix {
  kind: 'mix';
  mp3: Uint8Array;
  durationSeconds: number;
  peaks: number[];
}
export type DemoReply = RenderedMix | ({ kind: 'reference' } & Fingerprints);
type ReplyTo<J extends DemoJob> = Extract<DemoReply, { kind: J['kind'] }>;

interface Pending {
  resolve(reply: DemoReply): void;
  reject(error: Error): void;
}

interface Thread {
  worker: Worker;
  pending: Map<number, Pending>;
}

/**
 * The thread's file: demo-worker.js in the compiled API; running as TypeScript (development, tests), a shim that
 * registers tsx in the thread before it loads demo-worker.ts.
 */
const WORKER_FILE =
  extname(fileURLToPath(import.meta.url)) === '.ts'
    ? new URL('./demo-worker-tsx.mjs', import.meta.url)
    : new URL('./demo-worker.js', import.meta.url);

/**
 * One thread per core for the demo world's audio work (synthesis, MP3 encoding, fingerprinting: nearly all of its
 * build time), each job sent to the least busy thread.
 */
export class DemoWorkers {
  private readonly threads: Thread[];
  private nextId = 0;

  constructor(size = Math.max(1, availableParallelism())) {
    this.threads = Array.from({ length: size }, () => {
      const worker = new Worker(WORKER_FILE, { execArgv: [] });
      const thread: Thread = { worker, pending: new Map() };
      worker.on('message', ({ id, reply, error }: { id: number; reply?: DemoReply; error?: string }) => {
        const job = thread.pending.get(id);
        thread.pending.delete(id);
        if (reply) job?.resolve(reply);
        else job?.reject(new Error(`demo world job failed: ${error}`));
      });
      const failAll = (error: Error) => {
        for (const job of thread.pending.values()) job.reject(error);
        thread.pending.clear();
      };
      worker.on('error', failAll);
      worker.on('exit', (code) => failAll(new Error(`a demo world thread stopped (exit code ${code})`)));
      return thread;
    });
  }

  get size(): number {
    return this.threads.length;
  }

  run<J extends DemoJob>(job: J): Promise<ReplyTo<J>> {
    const thread = this.threads.reduce((least, candidate) => (candidate.pending.size < least.pending.size ? candidate : least));
    const id = this.nextId++;
    return new Promise<DemoReply>((resolve, reject) => {
      thread.pending.set(id, { resolve, reject });
      thread.worker.postMessage({ id, job });
    }) as Promise<ReplyTo<J>>;
  }

  async close(): Promise<void> {
    await Promise.all(this.threads.map(({ worker }) => worker.terminate()));
  }
}
