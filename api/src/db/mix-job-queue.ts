import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';

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
