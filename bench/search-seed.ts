/**
 * The search bench's world, made with set-based SQL (generate_series): invented words with a Zipf-like spread (a few
 * common, most rare) for titles, given names and family names for people, so common words are common and names rare.
 * Triggers are off while loading; the rows are then queued for the search indexer in one statement.
 */
import type pg from 'pg';
import { GENRE_CODES } from '../api/src/shared/domain.js';
import { Random } from '../api/src/shared/random.js';

export interface SearchWorldSize {
  mixes: number;
  members: number;
  tracks: number;
}

const SYLLABLES =
  'ka lo mi ne ra su to vi da el on ar bri cho dre fa gu ha jo ke lu ma no pe qui ri sa te ul va wen xi yo zu an be ce di fo gi ho in ja ki le mo nu or pi re si tu ur ve wi ya ze'.split(
    ' ',
  );

/** `count` distinct invented words of 2 to 4 syllables, deterministic. */
export function inventedWords(count: number, seed: string): string[] {
  const random = new Random(seed);
  const words = new Set<string>();
  while (words.size < count) {
    const syllables = random.int(2, 4);
    let word = '';
    for (let index = 0; index < syllables; index += 1) word += SYLLABLES[random.int(0, SYLLABLES.length - 1)];
    words.add(word[0]?.toUpperCase() + word.slice(1));
  }
  return [...words];
}

/**
 * Generated rows with their drawn words: `d` holds the draws (title words Zipf-like: cubing a uniform draw favours the
 * first words; family names uniform), joined by number to the word tables (hash joins: fast at millions of rows).
 */
const drawn = (titles: number, given: number, family: number) => `
  (select i, 1 + floor(power(random(), 3) * ${titles})::int t1, 1 + floor(power(random(), 3) * ${titles})::int t2,
          1 + floor(power(random(), 3) * ${titles})::int t3, 1 + floor(power(random(), 3) * ${titles})::int t4,
          1 + floor(power(random(), 3) * ${titles})::int t5, random() p2, random() p3, random() p4,
          1 + floor(power(random(), 2) * ${given})::int g, 1 + floor(random() * ${family})::int f, random() s, random() age
     from generate_series(1, $1::int) i) d
  join bench_title w1 on w1.n = d.t1 join bench_title w2 on w2.n = d.t2 join bench_title w3 on w3.n = d.t3
  join bench_title w4 on w4.n = d.t4 join bench_title w5 on w5.n = d.t5
  join bench_given gn on gn.n = d.g join bench_family fn on fn.n = d.f`;
/** 1 to 4 title words, fewer more often. */
const PHRASE = `concat_ws(' ', w1.w, case when d.p2 < 0.8 then w2.w end, case when d.p3 < 0.45 then w3.w end, case when d.p4 < 0.15 then w4.w end)`;
const PERSON = `gn.w || ' ' || fn.w`;

export async function seedSearchWorld(client: pg.Client, size: SearchWorldSize): Promise<void> {
  const titleWords = inventedWords(30_000, 'search:titles');
  const given = inventedWords(3_000, 'search:given');
  const family = inventedWords(60_000, 'search:family');
  for (const [table, list] of [
    ['bench_title', titleWords],
    ['bench_given', given],
    ['bench_family', family],
  ] as const) {
    await client.query(`create table if not exists ${table} (n int primary key, w text)`);
    await client.query(`truncate ${table}`);
    await client.query(`insert into ${table} select u.n, u.w from unnest($1::text[]) with ordinality as u(w, n)`, [list]);
  }
  await client.query('set session_replication_role = replica');
  await client.query(
    `insert into app_user (id, email, password_hash, has_opted_in, user_name, display_name, user_type, bio, is_agreed_to_conduct,
                           current_mix_pos, created_at, updated_at)
     select gen_random_uuid(), 'search' || d.i || '@example.com', repeat('x', 60), false, 'member_' || d.i, ${PERSON},
            'dj', '', true, 0, now() - d.age * interval '800 days', now()
       from ${drawn(titleWords.length, given.length, family.length)}`,
    [size.members],
  );
  await client.query(
    `insert into track (id, title, creators, label, is_manual, buy, new_release, created_at)
     select gen_random_uuid(), ${PHRASE},
            jsonb_build_array(jsonb_build_object('id', null, 'name', ${PERSON})),
            jsonb_build_object('id', null, 'name', w5.w || ' Records'), false, false, false, now()
       from ${drawn(titleWords.length, given.length, family.length)}`,
    [size.tracks],
  );
  await client.query('create temporary table bench_owner as select id, row_number() over () rn from app_user');
  const genres = `array[${GENRE_CODES.map((code) => `'${code}'`).join(',')}]`;
  await client.query(
    `insert into mix (id, owner_id, title, genre, cover, mp3, audio_bytes, duration_seconds, bitrate, waveform_state, status,
                      published_at, expires_at, deactivated_at, play_count, created_at, updated_at)
     select gen_random_uuid(), o.id, ${PHRASE}, (${genres})[1 + floor(random() * ${GENRE_CODES.length})::int],
            md5('c' || d.i) || '.jpg', md5('a' || d.i) || '.mp3', 1, 1800 + floor(d.s * 7200), 320, 'ready',
            case when d.s < 0.03 then 'draft' else 'published' end,
            case when d.s < 0.03 then null else now() - d.age * interval '300 days' end,
            null, case when d.s > 0.98 then now() else null end, floor(power(d.s, 4) * 5000)::int, now() - d.age * interval '300 days', now()
       from ${drawn(titleWords.length, given.length, family.length)} join bench_owner o on o.rn = 1 + (d.i % $2::int) order by d.age desc`,
    [size.mixes, size.members],
  );
  await client.query('create temporary table bench_track as select id, row_number() over () rn from track');
  // Five entries per tracklist.
  await client.query(
    `insert into mix_track (id, mix_id, track_id, position)
     select gen_random_uuid(), m.id, t.id, p from mix m cross join generate_series(1, 5) p
       join bench_track t on t.rn = 1 + (abs(hashtext(m.id::text || p::text)) % $1::int)`,
    [size.tracks],
  );
  await client.query('set session_replication_role = origin');
  await client.query(
    `insert into search_pending (kind, ref_id) select 1, id from mix union all select 2, id from app_user union all select 3, id from track
     on conflict do nothing`,
  );
  await client.query('vacuum analyze');
}
