import { setImmediate as yieldToEvents } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { Orm } from '../db/orm.js';
import { ReferenceFingerprinter } from '../modules/recognition/recognition.js';
import { RecognitionService } from '../modules/recognition/recognition.service.js';
import { planWorld } from './plan.js';
import { renderReference, SAMPLE_RATE } from './synth.js';

const LOCK_NAME = 'mixcrate-demo-recognition';
/** Seconds of audio fingerprinted between turns of the event loop (a few milliseconds of work): requests keep flowing. */
const SLICE_SECONDS = 2;

/**
 * Fingerprints the demo world's references into the recognition index, once: those indexed already are skipped, so
 * later starts only check (one query). About half a second of work per reference, done in slices between which the
 * server keeps serving (see startServer, which runs this after it serves). Of processes starting together, one does
 * the work (a try-lock on a connection of its own; the others skip). Stops between slices when `signal` aborts.
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
    let indexed = 0;
    for (const reference of await missing()) {
      if (signal?.aborted) break;
      const audio = renderReference(reference.recipe, SAMPLE_RATE);
      const fingerprinter = new ReferenceFingerprinter(SAMPLE_RATE);
      const slice = SLICE_SECONDS * SAMPLE_RATE;
      for (let at = 0; at < audio.length && !signal?.aborted; at += slice) {
        fingerprinter.push(audio.subarray(at, at + slice));
        await yieldToEvents();
      }
      if (signal?.aborted) break;
      await recognition.storeFingerprints(reference.trackId, fingerprinter.finish());
      indexed += 1;
    }
    if (indexed > 0) log.info({ references: indexed, ms: Date.now() - started }, 'demo references fingerprinted for recognition');
    return indexed;
  } finally {
    await client.end();
  }
}
