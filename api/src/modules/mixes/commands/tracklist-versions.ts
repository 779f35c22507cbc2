import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The versions of a published mix's tracklist (docs/payments.md#tracklist-versions). `mix_track` is always the current
 * tracklist; a version is a copy of it taken when it came into force, added and never changed, so a listen can name
 * the tracks it was heard with and settlement pays those.
 */

/** Copies the mix's current tracklist (`mix_track`, as this transaction sees it) into the next version. */
const COPY_CURRENT = `
  with version as (
    insert into tracklist_version (id, mix_id, number, created_at)
    select gen_random_uuid(), m.id, coalesce((select max(v.number) from tracklist_version v where v.mix_id = m.id), 0) + 1, ?
      from mix m where m.id = ? and (? or not exists (select 1 from tracklist_version v where v.mix_id = m.id))
    on conflict on constraint tracklist_version_mix_number_unique do nothing
    returning id, mix_id)
  insert into tracklist_version_entry (id, version_id, track_id, position, start_time, end_time)
  select gen_random_uuid(), version.id, mt.track_id, mt.position, mt.start_time, mt.end_time
    from version join mix_track mt on mt.mix_id = version.mix_id`;

/**
 * The id of the mix's version in force now. A published mix gets its version 1 when it is published; one that
 * reaches a listen or an edit without any (written by a path that made none) gets it here, from its tracklist as it is,
 * dated from its publishing. Two callers at once make one version 1 (the unique number; the second waits, then reads it).
 */
export async function tracklistVersionInForce(em: EntityManager, mixId: string): Promise<string | null> {
  const latest = () =>
    em.execute<{ id: string }[]>('select id from tracklist_version where mix_id = ? order by number desc limit 1', [mixId]);
  const [current] = await latest();
  if (current) return current.id;
  const [mix] = await em.execute<{ published_at: Date | null }[]>(`select published_at from mix where id = ? and status = 'published'`, [
    mixId,
  ]);
  if (!mix) return null;
  await em.execute(COPY_CURRENT, [mix.published_at ?? new Date(), mixId, false]);
  const [made] = await latest();
  return made?.id ?? null;
}

/**
 * After the tracklist of a published mix was replaced (its row locked by the caller): the new tracklist becomes the next
 * version, in force from `now`. The caller makes sure the version it replaces exists first (tracklistVersionInForce
 * before the rows change), so a mix published before versions existed keeps what it was heard with.
 */
export async function addTracklistVersion(em: EntityManager, mixId: string, now: Date): Promise<void> {
  await em.execute(COPY_CURRENT, [now, mixId, true]);
}
