import cluster, { type Worker } from 'node:cluster';
import { once } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import { keepClusterRateLimits } from './modules/auth/rate-limits.js';
import type { PreparedDatabase } from './server.js';

const RESTART_DELAY_MS = 1_000;
const STOP_TIMEOUT_MS = 20_000;

export interface RunningCluster {
  url: string;
  stop(): Promise<void>;
}

/**
 * WEB_CONCURRENCY > 1: this primary process prepares the database once (embedded PostgreSQL, migrations), then runs
 * that many API processes sharing the port, so the server uses every core. A worker that dies is replaced. What the
 * workers share lives in PostgreSQL (locks, events) or, for rate limits, with this process.
 */
export async function runCluster(
  workers: number,
  database: PreparedDatabase,
  log: FastifyBaseLogger,
  workerEnv: Record<string, string> = {},
): Promise<RunningCluster> {
  keepClusterRateLimits();
  let stopping = false;
  const fork = (): Worker => cluster.fork({ ...workerEnv, DATABASE_URL: database.url, MIXCRATE_CLUSTER_WORKER: '1' });

  cluster.on('exit', (worker, code, signal) => {
    // A clean exit is a stop asked for (Ctrl-C reaches every process of the group); anything else is a crash.
    if (stopping || (code === 0 && !signal)) return;
    log.warn({ pid: worker.process.pid, code, signal }, 'an API process died; starting another');
    setTimeout(() => {
      if (!stopping) fork();
    }, RESTART_DELAY_MS).unref();
  });

  const started = Array.from({ length: workers }, fork);
  const exitEarly = (worker: Worker) =>
    once(worker, 'exit').then(([code]) => {
      throw new Error(`an API process exited (code ${code}) before it listened`);
    });
  const exits = started.map(exitEarly);
  // Only the race below cares how a worker ends; later exits are the restart handler's business.
  for (const exit of exits) exit.catch(() => undefined);
  const listening = await Promise.race([
    Promise.all(started.map(async (worker) => (await once(worker, 'listening')) as [{ port: number }])),
    ...exits,
  ]).catch(async (error: unknown) => {
    stopping = true;
    for (const worker of started) worker.kill('SIGTERM');
    await database.stop();
    throw error;
  });
  const [[address]] = listening;

  return {
    url: `http://127.0.0.1:${address.port}`,
    async stop() {
      stopping = true;
      const running = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => Boolean(worker));
      await Promise.all(
        running.map(async (worker) => {
          const exited = once(worker, 'exit');
          worker.process.kill('SIGTERM');
          const timer = setTimeout(() => worker.process.kill('SIGKILL'), STOP_TIMEOUT_MS);
          await exited;
          clearTimeout(timer);
        }),
      );
      await database.stop();
    },
  };
}
