import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

interface Job {
  resolve(mp3: Buffer): void;
  reject(error: Error): void;
}

interface Encoder {
  worker: Worker;
  jobs: Map<number, Job>;
}

/** MP3 encoding on one worker thread per core (encoding is most of the demo world's build time). */
export class Mp3EncoderPool {
  private readonly encoders: Encoder[];
  private nextId = 0;

  constructor(sampleRate: number, bitrate: number, size = Math.max(1, availableParallelism())) {
    this.encoders = Array.from({ length: size }, () => {
      const worker = new Worker(new URL('./encode-worker.mjs', import.meta.url), {
        execArgv: [],
        workerData: { sampleRate, kilobitrate: bitrate / 1000 },
      });
      const encoder: Encoder = { worker, jobs: new Map() };
      worker.on('message', ({ id, mp3, error }: { id: number; mp3?: ArrayBuffer; error?: string }) => {
        const job = encoder.jobs.get(id);
        encoder.jobs.delete(id);
        if (mp3) job?.resolve(Buffer.from(mp3));
        else job?.reject(new Error(`MP3 encoding failed: ${error}`));
      });
      const failAll = (error: Error) => {
        for (const job of encoder.jobs.values()) job.reject(error);
        encoder.jobs.clear();
      };
      worker.on('error', failAll);
      worker.on('exit', (code) => failAll(new Error(`the MP3 encoder thread stopped (exit code ${code})`)));
      return encoder;
    });
  }

  get size(): number {
    return this.encoders.length;
  }

  /** Encodes mono samples on the least busy thread (the array is handed over to it: do not use it afterwards). */
  encode(samples: Float32Array): Promise<Buffer> {
    const encoder = this.encoders.reduce((least, candidate) => (candidate.jobs.size < least.jobs.size ? candidate : least));
    const id = this.nextId++;
    return new Promise<Buffer>((resolve, reject) => {
      encoder.jobs.set(id, { resolve, reject });
      encoder.worker.postMessage({ id, samples }, [samples.buffer as ArrayBuffer]);
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.encoders.map(({ worker }) => worker.terminate()));
  }
}
