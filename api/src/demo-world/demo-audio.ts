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

/** Which of the world's audio to make: every mix and reference unless told (a build resumed after a crash). */
export interface DemoAudioScope {
  mixes: readonly number[];
  references: readonly number[];
}

/**
 * The order the home feed shows the demo mixes in (newest published first, docs/home-feed.md#the-carousel): their
 * audio is made in this order, so the first screens play first and each mix is published as soon as it can play.
 */
export function mixesInFeedOrder(world: Pick<PlannedWorld, 'mixes'>, indexes?: readonly number[]): number[] {
  const chosen = indexes ?? world.mixes.map((_, index) => index);
  return [...chosen].sort((a, b) => (world.mixes[a]?.publishedDaysAgo ?? 0) - (world.mixes[b]?.publishedDaysAgo ?? 0));
}

/**
 * The demo world's audio work on the demo world threads: every mix rendered and encoded, in the home feed's order,
 * then every reference fingerprinted (recognition, which nobody sees on the first screens), longest first so the
 * threads end together. It needs neither the database nor the server, so a first start begins it before anything
 * else (see main.ts); the build takes each result, in job order, as it comes.
 */
export class DemoAudio {
  readonly jobs: DemoJob[];
  /** Each job's result, by its position in `jobs`. */
  readonly results: Promise<DemoReply>[];
  private readonly workers = new DemoWorkers();
  private readonly settle: { resolve(reply: DemoReply): void; reject(error: unknown): void }[] = [];
  private closed = false;

  constructor(world: PlannedWorld, scope?: DemoAudioScope) {
    const references = scope?.references ?? world.references.map((_, index) => index);
    this.jobs = [
      ...mixesInFeedOrder(world, scope?.mixes).map((index) => ({ kind: 'mix' as const, index })),
      ...[...references]
        .sort((a, b) => (world.references[b]?.recipe.durationSeconds ?? 0) - (world.references[a]?.recipe.durationSeconds ?? 0))
        .map((index) => ({ kind: 'reference' as const, index })),
    ];
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
