import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';

/** A queued job that waited this long for a worker means no process is working the queues. */
const STALLED_JOB_MINUTES = 5;

type Check = 'ok' | string;

/**
 * Probes for load balancers and orchestrators. /healthz: the process answers (restart it when this fails). /readyz: it
 * can serve (send it traffic only when this passes): the database answers, every migration is applied, and the job
 * queues (pg-boss, started on first use) have no job left waiting past its time.
 */
export function healthRoutes(services: Services) {
  const connection = () => services.orm.em.fork().getConnection();
  const checks: Record<string, () => Promise<Check>> = {
    database: async () => {
      await connection().execute('select 1');
      return 'ok';
    },
    migrations: async () => {
      const pending = await services.orm.migrator.getPending();
      return pending.length === 0 ? 'ok' : `${pending.length} pending: ${pending.map((migration) => migration.name).join(', ')}`;
    },
    jobs: async () => {
      const [installed] = await connection().execute<{ exists: boolean }[]>(`select to_regclass('pgboss.job') is not null as exists`);
      if (!installed?.exists) return 'ok';
      const [stalled] = await connection().execute<{ count: number }[]>(
        `select count(*)::int as count from pgboss.job where state = 'created' and start_after < now() - make_interval(mins => ?)`,
        [STALLED_JOB_MINUTES],
      );
      return stalled?.count ? `${stalled.count} jobs waiting more than ${STALLED_JOB_MINUTES} minutes for a worker` : 'ok';
    },
  };
  return async (app: FastifyInstance) => {
    const noStore = { 'cache-control': 'no-store' };
    app.get('/healthz', { schema: { hide: true } }, async (_request, reply) => reply.headers(noStore).send({ status: 'ok' }));
    app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
      const results = await Promise.all(
        Object.entries(checks).map(async ([name, check]) => [name, await check().catch((error: Error) => error.message || 'failed')]),
      );
      const ready = results.every(([, result]) => result === 'ok');
      return reply
        .status(ready ? 200 : 503)
        .headers(noStore)
        .send({ status: ready ? 'ok' : 'unavailable', checks: Object.fromEntries(results) });
    });
  };
}
