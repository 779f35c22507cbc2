import type { EntityManager } from '@mikro-orm/postgresql';
import { parseInput } from '../../shared/inputs.js';
import { VISIBLE_MIX_SQL } from '../mixes/index.js';
import { ListenErrors } from './listen.errors.js';
import { mixIdInput } from './listen.inputs.js';

/** The read model of listens: a listen record, its columns and row mapping, and the mix a listen is of. */

export interface ListenRecord {
  id: string;
  userId: string | null;
  userName: string | null;
  start: Date;
  end: Date | null;
}

export interface ListenRow {
  id: string;
  user_id: string | null;
  user_name: string | null;
  started_at: Date;
  ended_at: Date | null;
}

export const LISTEN_COLUMNS = 'id, user_id, null as user_name, started_at, ended_at';

export const toRecord = (row: ListenRow): ListenRecord => ({
  id: row.id,
  userId: row.user_id,
  userName: row.user_name,
  start: new Date(row.started_at),
  end: row.ended_at ? new Date(row.ended_at) : null,
});

export interface ListenedMix {
  id: string;
  publishedAt: Date;
  durationSeconds: number | null;
}

/** A mix anyone may listen to, with what bounds a listen of it: when it was published and how long it lasts. */
export async function listenableMix(em: EntityManager, rawMixId: unknown): Promise<ListenedMix> {
  const mixId = parseInput(mixIdInput, rawMixId);
  const [row] = mixId
    ? await em.execute<{ id: string; published_at: Date | string; duration_seconds: number | null }[]>(
        `select id, published_at, duration_seconds from mix where id = ? and ${VISIBLE_MIX_SQL}`,
        [mixId],
      )
    : [];
  if (!row) throw ListenErrors.mixNotFound();
  return { id: row.id, publishedAt: new Date(row.published_at), durationSeconds: row.duration_seconds };
}
