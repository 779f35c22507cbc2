import type { EntityManager } from '@mikro-orm/postgresql';

/** Keeping the catalogue in shape: planner statistics, the index's size, and popularity folded in from use. */

/**
 * Refreshes the planner's statistics and the visibility map of the index tables after a large write (lookups read
 * postings index-only). Runs outside any transaction.
 */
export async function vacuumCatalogue(em: EntityManager): Promise<void> {
  await em.execute('vacuum (analyze) track, catalogue_word, catalogue_word_key, catalogue_posting');
}

/** The size of the lookup index in bytes: its tables and their indexes, and the tracks' word lists. */
export async function catalogueIndexBytes(em: EntityManager): Promise<{ tables: Record<string, number>; total: number }> {
  const rows = await em.execute<{ name: string; bytes: string }[]>(
    `select c.relname as name, pg_total_relation_size(c.oid) as bytes from pg_class c
      where c.relname in ('catalogue_word', 'catalogue_word_key', 'catalogue_posting') and c.relkind = 'r'
     union all
     select 'track.search_words', coalesce(sum(pg_column_size(search_words)), 0) from track`,
  );
  const tables = Object.fromEntries(rows.map((row) => [row.name, Number(row.bytes)]));
  return { tables, total: Object.values(tables).reduce((sum, bytes) => sum + bytes, 0) };
}

/**
 * Recomputes popularity: how often each track was chosen for a tracklist, saved, and played (the plays of the mixes
 * holding it). Triggers keep chosen and saved counts current between runs; run this now and then to fold plays in.
 */
export async function refreshPopularity(em: EntityManager): Promise<void> {
  await em.transactional(async (tx) => {
    await tx.execute(`create temporary table catalogue_use on commit drop as
      select track_id, sum(n)::int as n from (
        select track_id, count(*) as n from mix_track group by track_id
        union all select track_id, count(*) from saved_track group by track_id
        union all select mt.track_id, sum(m.play_count) from mix_track mt join mix m on m.id = mt.mix_id group by mt.track_id
      ) u group by track_id`);
    await tx.execute(
      'update track t set popularity = u.n from catalogue_use u where u.track_id = t.id and t.popularity is distinct from u.n',
    );
    await tx.execute(
      'update track t set popularity = 0 where t.popularity <> 0 and not exists (select 1 from catalogue_use u where u.track_id = t.id)',
    );
  });
}
