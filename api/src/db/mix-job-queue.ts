import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { AdvisoryLocks } from './advisory-locks.js';

export interface MixJobQueueOptions {
  connectionString: string;
  /** pg-boss's own connections and its name in pg_stat_activity. */
  maxConnections: number;
  applicationName: string;
  queue: string;
  /** Where a job goes once its retries are spent. */
  deadLetterQueue: string;
  retryLimit: number;
  retryDelaySeconds: number;
  /** A job still active after this long is taken as lost and retried. */
  expireInSeconds: number;
}

/** What a job per mix does: its work, and what a job that ran out of retries leaves behind. */
export interface MixJobHandlers {
  run(mixId: string): Promise<void>;
  failed(mixId: string): Promise<void>;
}

/**
 * Starts a pg-boss queue of one job per mix (waveforms, recognition) with retries that back off, a dead-letter queue,
 * and a worker on each; answers the queue and its worker's id (for `notifyWorker` after a send).
 */
export async function startMixJobQueue(
  options: MixJobQueueOptions,
  handlers: MixJobHandlers,
  log: Pick<FastifyBaseLogger, 'error'>,
): Promise<{ boss: PgBoss; workerId: string }> {
  const boss = new PgBoss({
    connectionString: options.connectionString,
    max: options.maxConnections,
    application_name: options.applicationName,
  });
  boss.on('error', (error) => log.error({ err: error, queue: options.queue }, 'job queue error'));
  await boss.start();
  const retries = {
    retryLimit: options.retryLimit,
    retryDelay: options.retryDelaySeconds,
    retryBackoff: true,
    expireInSeconds: options.expireInSeconds,
    deadLetter: options.deadLetterQueue,
  };
  await boss.createQueue(options.deadLetterQueue, { name: options.deadLetterQueue });
  if (await boss.getQueue(options.queue)) await boss.updateQueue(options.queue, { name: options.queue, ...retries });
  else await boss.createQueue(options.queue, { name: options.queue, ...retries });
  const workerId = await boss.work<{ mixId: string }>(options.queue, { pollingIntervalSeconds: 1 }, async (jobs) => {
    for (const job of jobs) await handlers.run(job.data.mixId);
  });
  await boss.work<{ mixId: string }>(options.deadLetterQueue, { pollingIntervalSeconds: 5 }, async (jobs) => {
    for (const job of jobs) await handlers.failed(job.data.mixId);
  });
  return { boss, workerId };
}

/**
 * Runs a mix's job under its lock, named `lockName`, unless another process holds it right now (its job was taken
 * for abandoned): one result is enough.
 */
export async function runHoldingMixLock(locks: AdvisoryLocks, lockName: string, work: () => Promise<void>): Promise<void> {
  const held = await locks.tryAcquire(lockName);
  if (!held) return;
  try {
    await work();
  } finally {
    await held.release();
  }
}

/**
 * An active job nobody holds the lock of was left by a dead process: cancelled and resumed, it is queued again at
 * once, without counting as one of its retries. (A live process between taking the job and taking the lock would run
 * it twice; both write the same result.)
 */
export async function rerunIfAbandoned(
  queue: { boss: PgBoss; name: string; workerId: string | null },
  locks: AdvisoryLocks,
  lockName: string,
  mixId: string,
): Promise<void> {
  const held = await locks.tryAcquire(lockName);
  if (!held) return;
  try {
    await queue.boss.cancel(queue.name, mixId);
    await queue.boss.resume(queue.name, mixId);
  } finally {
    await held.release();
  }
  if (queue.workerId) queue.boss.notifyWorker(queue.workerId);
}
