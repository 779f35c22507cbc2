import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { Orm } from '../db/orm.js';
import { RecognitionService } from '../modules/recognition/recognition.service.js';
import { DemoWorkers } from './demo-workers.js';
import { planWorld } from './plan.js';

const LOCK_NAME = 'mixcrate-demo-recognition';

/**
 * Fingerprints the demo world's references into the recognition index, once: those indexed already are skipped, so
 * later starts only check (one query). The demo world's build indexes them itself; this catches up on a database whose
 * build stopped before (or was made before the recognition index). About half a second of work per reference, on the
 * demo world threads while the server serves. Of processes starting together, one does
 * the work (a try-lock on a connection of its own; the others skip). Stops between references when `signal` aborts.
 * Returns how many references it indexed.
 */
export async function indexDemoReferencesOnce({ orm, log }: { orm: Orm; log: FastifyBaseLogger }, signal?: AbortSignal): Promise<number> {
  const world = planWorld();
  const ids = world.references.map((reference) => reference.trackId);
  const connection = orm.em.fork().getConnection();
  const missing = async () => {
    const rows = await connection.execute<{ id: string }[]>(
      `select t.id from track t where t.id in (?) and not exists (select 1 from recognition_reference r where r.track_id = t.id)`,
      [ids],
    );
    const present = new Set(rows.map((row) => row.id));
    return world.references.filter((reference) => present.has(reference.trackId));
  };
  if ((await missing()).length === 0) return 0;
  const client = new pg.Client({ connectionString: orm.config.get('clientUrl') });
  await client.connect();
  try {
    const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock(hashtextextended($1, 0)) as locked', [LOCK_NAME]);
    if (!rows[0]?.locked) return 0;
    const started = Date.now();
    const recognition = new RecognitionService(orm);
    const workers = new DemoWorkers();
    const references = await missing();
    const next = references.map((reference) => workers.run({ kind: 'reference', index: reference.index }));
    let indexed = 0;
    try {
      // Every job is queued at once (the threads take them in turn); each result is stored as it comes, in order.
      for (const [at, reference] of references.entries()) {
        if (signal?.aborted) break;
        const { hashes, data, seconds } = await (next[at] as (typeof next)[number]);
        await recognition.storeFingerprints(reference.trackId, { hashes, data, seconds });
        indexed += 1;
      }
    } finally {
      // Jobs still queued fail when the threads stop: nobody waits for them.
      for (const result of next) result.catch(() => undefined);
      await workers.close();
    }
    if (indexed > 0) log.info({ references: indexed, ms: Date.now() - started }, 'demo references fingerprinted for recognition');
    return indexed;
  } finally {
    await client.end();
  }
}
