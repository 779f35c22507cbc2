import { type DemoJob, type DemoReply, DemoWorkers } from './demo-workers.js';
import type { PlannedWorld } from './plan.js';

/** Jobs queued per demo world thread: enough that no thread waits for the next while memory stays bounded. */
const IN_FLIGHT_PER_WORKER = 2;

/** Runs `work` on every item, at most `limit` at once. */
export async function inParallel<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index] as T, index);
    }
  });
  await Promise.all(runners);
}

/**
 * The demo world's audio work on the demo world threads: every mix rendered and encoded, every reference
 * fingerprinted, longest first so the threads end together. It needs neither the database nor the server, so a first
 * start begins it before anything else (see main.ts); the build takes each result, in job order, as it comes.
 */
export class DemoAudio {
  readonly jobs: DemoJob[];
  /** Each job's result, by its position in `jobs`. */
  readonly results: Promise<DemoReply>[];
  private readonly workers = new DemoWorkers();
  private readonly settle: { resolve(reply: DemoReply): void; reject(error: unknown): void }[] = [];
  private closed = false;

  constructor(world: PlannedWorld) {
    this.jobs = [
      ...world.mixes.map((mix, index) => ({ kind: 'mix' as const, index, seconds: mix.durationSeconds })),
      // A reference's fingerprinting costs about as much as encoding a mix half its length.
      ...world.references.map((reference, index) => ({ kind: 'reference' as const, index, seconds: reference.recipe.durationSeconds / 2 })),
    ]
      .sort((a, b) => b.seconds - a.seconds)
      .map(({ kind, index }) => ({ kind, index }));
    const settle = this.settle;
    this.results = this.jobs.map(
      () =>
        new Promise<DemoReply>((resolve, reject) => {
          settle.push({ resolve, reject });
        }),
    );
    // Whoever takes a result sees its failure; a result nobody takes (the build stopped) must not go unhandled.
    for (const result of this.results) result.catch(() => undefined);
    void inParallel(this.jobs, IN_FLIGHT_PER_WORKER * this.workers.size, async (job, index) => {
      if (this.closed) return;
      await this.workers.run(job).then(
        (reply) => settle[index]?.resolve(reply),
        (error: unknown) => settle[index]?.reject(error),
      );
    });
  }

  /** Stops the threads: every result not made yet fails. */
  close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      // A settled promise ignores this: only the results still to come fail.
      for (const { reject } of this.settle) reject(new Error('the demo world threads stopped'));
    }
    return this.workers.close();
  }
}
