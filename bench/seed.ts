import type pg from 'pg';
import { GENRE_CODES, USER_TYPE_CODES } from '../api/src/shared/domain.js';

/**
 * Cities where people make and play mixes, with a rough weight (how many members live there). Members are scattered
 * around them (a normal spread of about 40 km) and a few live anywhere on earth, so radius queries see dense clusters
 * and empty oceans as real traffic would.
 */
const CITIES: [name: string, latitude: number, longitude: number, weight: number][] = [
  ['Berlin', 52.52, 13.405, 10],
  ['London', 51.5074, -0.1278, 12],
  ['Paris', 48.8566, 2.3522, 8],
  ['Amsterdam', 52.3676, 4.9041, 6],
  ['Ibiza', 38.9067, 1.4206, 3],
  ['Barcelona', 41.3874, 2.1686, 6],
  ['Madrid', 40.4168, -3.7038, 5],
  ['Lisbon', 38.7223, -9.1393, 3],
  ['Milan', 45.4642, 9.19, 4],
  ['Rome', 41.9028, 12.4964, 3],
  ['Munich', 48.1351, 11.582, 4],
  ['Hamburg', 53.5511, 9.9937, 3],
  ['Cologne', 50.9375, 6.9603, 3],
  ['Brussels', 50.8503, 4.3517, 3],
  ['Manchester', 53.4808, -2.2426, 4],
  ['Glasgow', 55.8642, -4.2518, 2],
  ['Dublin', 53.3498, -6.2603, 3],
  ['Copenhagen', 55.6761, 12.5683, 2],
  ['Stockholm', 59.3293, 18.0686, 2],
  ['Oslo', 59.9139, 10.7522, 1],
  ['Warsaw', 52.2297, 21.0122, 2],
  ['Prague', 50.0755, 14.4378, 2],
  ['Vienna', 48.2082, 16.3738, 2],
  ['Budapest', 47.4979, 19.0402, 2],
  ['Tbilisi', 41.7151, 44.8271, 1],
  ['Istanbul', 41.0082, 28.9784, 3],
  ['Tel Aviv', 32.0853, 34.7818, 2],
  ['Moscow', 55.7558, 37.6173, 3],
  ['New York', 40.7128, -74.006, 10],
  ['Chicago', 41.8781, -87.6298, 5],
  ['Detroit', 42.3314, -83.0458, 3],
  ['Los Angeles', 34.0522, -118.2437, 7],
  ['San Francisco', 37.7749, -122.4194, 4],
  ['Miami', 25.7617, -80.1918, 4],
  ['Montreal', 45.5017, -73.5673, 3],
  ['Toronto', 43.6532, -79.3832, 3],
  ['Mexico City', 19.4326, -99.1332, 4],
  ['Bogota', 4.711, -74.0721, 2],
  ['Sao Paulo', -23.5505, -46.6333, 5],
  ['Rio de Janeiro', -22.9068, -43.1729, 3],
  ['Buenos Aires', -34.6037, -58.3816, 3],
  ['Santiago', -33.4489, -70.6693, 2],
  ['Lagos', 6.5244, 3.3792, 3],
  ['Accra', 5.6037, -0.187, 1],
  ['Johannesburg', -26.2041, 28.0473, 4],
  ['Cape Town', -33.9249, 18.4241, 2],
  ['Nairobi', -1.2921, 36.8219, 2],
  ['Cairo', 30.0444, 31.2357, 2],
  ['Dubai', 25.2048, 55.2708, 2],
  ['Mumbai', 19.076, 72.8777, 3],
  ['Bangalore', 12.9716, 77.5946, 2],
  ['Bangkok', 13.7563, 100.5018, 2],
  ['Singapore', 1.3521, 103.8198, 2],
  ['Seoul', 37.5665, 126.978, 3],
  ['Tokyo', 35.6762, 139.6503, 5],
  ['Shanghai', 31.2304, 121.4737, 3],
  ['Manila', 14.5995, 120.9842, 1],
  ['Sydney', -33.8688, 151.2093, 4],
  ['Melbourne', -37.8136, 144.9631, 3],
  ['Auckland', -36.8485, 174.7633, 1],
];

export const BENCH_POINTS = CITIES.map(([name, latitude, longitude]) => ({ name, latitude, longitude }));

const GENRES_SQL = `array[${GENRE_CODES.map((code) => `'${code}'`).join(',')}]`;
const USER_TYPES_SQL = `array[${USER_TYPE_CODES.map((code) => `'${code}'`).join(',')}]`;
// A normal deviate from two uniform ones (Box-Muller); `u1` is kept away from 0 so ln() stays finite.
const gaussian = (u1: string, u2: string) => `sqrt(-2 * ln(greatest(${u1}, 1e-9))) * cos(2 * pi() * ${u2})`;

export interface SeedSize {
  users: number;
  mixes: number;
  catalogueTracks: number;
}

/**
 * Bulk loading is much faster without per-row foreign-key triggers and index upkeep: skip the triggers for this session
 * (the generated rows are consistent by construction), drop the secondary indexes, and the primary keys and unique
 * constraints no foreign key depends on, and build them all once at the end.
 */
async function withBulkLoad(client: pg.Client, tables: string[], load: () => Promise<void>): Promise<void> {
  const indexes = await client.query<{ name: string; definition: string }>(
    `select i.indexname as name, i.indexdef as definition from pg_indexes i
      where i.schemaname = 'public' and i.tablename = any($1)
        and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
    [tables],
  );
  const constraints = await client.query<{ table_name: string; name: string; definition: string }>(
    `select c.conrelid::regclass::text as table_name, c.conname as name, pg_get_constraintdef(c.oid) as definition
       from pg_constraint c
      where c.contype in ('p', 'u') and c.conrelid::regclass::text = any($1)
        and not exists (select 1 from pg_constraint f where f.contype = 'f' and f.confrelid = c.conrelid)`,
    [tables],
  );
  for (const index of indexes.rows) await client.query(`drop index "${index.name}"`);
  for (const constraint of constraints.rows)
    await client.query(`alter table ${constraint.table_name} drop constraint "${constraint.name}"`);
  await client.query(`set session_replication_role = replica`);
  await client.query(`set maintenance_work_mem = '256MB'`);
  try {
    await load();
  } finally {
    await client.query(`set session_replication_role = origin`);
    for (const constraint of constraints.rows) {
      await client.query(`alter table ${constraint.table_name} add constraint "${constraint.name}" ${constraint.definition}`);
    }
    for (const index of indexes.rows) await client.query(index.definition);
  }
}

/** Loads members, catalogue tracks, mixes (with tracklists) and saves with set-based SQL. */
export async function seedFeedWorld(client: pg.Client, size: SeedSize): Promise<void> {
  await withBulkLoad(client, ['app_user', 'track', 'mix', 'mix_track', 'saved_mix'], () => load(client, size));
  // The bulk load skipped triggers, so the feed's tally (see the feed migration) is rebuilt from the mixes.
  await client.query('delete from mix_feed_tally');
  await client.query(
    `insert into mix_feed_tally (expires_week, genre, mixes)
     select coalesce(date_trunc('week', expires_at at time zone 'UTC')::date, 'infinity'), genre, count(*)
       from mix where status = 'published' and deactivated_at is null group by 1, 2`,
  );
  await client.query('vacuum analyze');
}

async function load(client: pg.Client, size: SeedSize): Promise<void> {
  await client.query(`create temporary table bench_city (latitude float8, longitude float8)`);
  const cityRows = CITIES.flatMap(([, lat, lng, weight]) => Array.from({ length: weight }, () => `(${lat}, ${lng})`));
  await client.query(`insert into bench_city values ${cityRows.join(',')}`);

  // Members: 95% around a city, 5% anywhere. The password hash is a placeholder (nobody signs in as these).
  await client.query(
    `with city as (select array_agg(latitude) lats, array_agg(longitude) lngs, count(*)::int n from bench_city),
          draw as (select i, random() pick, random() a, random() b, random() c, random() d, random() anywhere
                     from generate_series(1, $1::int) i)
     insert into app_user (id, email, password_hash, has_opted_in, user_name, display_name, user_type, bio, latitude, longitude,
                           is_agreed_to_conduct, current_mix_pos, created_at, updated_at)
     select gen_random_uuid(), 'bench' || i || '@example.com', repeat('x', 60), false, 'bench_' || i, 'Bench DJ ' || i,
            (${USER_TYPES_SQL})[1 + floor(a * ${USER_TYPE_CODES.length})::int], '',
            case when anywhere < 0.05 then degrees(asin(2 * c - 1))
                 else least(89.9, greatest(-89.9, city.lats[1 + floor(pick * city.n)::int] + 0.4 * ${gaussian('a', 'b')})) end,
            case when anywhere < 0.05 then d * 360 - 180
                 else ((city.lngs[1 + floor(pick * city.n)::int] + 0.55 * ${gaussian('c', 'd')} + 540)::numeric % 360 - 180)::float8 end,
            true, 0, now() - (a * interval '800 days'), now()
       from draw, city`,
    [size.users],
  );

  await client.query(
    `insert into track (id, title, creators, label, cover, is_manual, buy, new_release, created_at)
     select gen_random_uuid(), 'Track ' || i, jsonb_build_array(jsonb_build_object('id', null, 'name', 'Artist ' || (i % 9000))),
            jsonb_build_object('id', null, 'name', 'Label ' || (i % 700)), null, false, i % 3 = 0, i % 17 = 0, now()
       from generate_series(1, $1::int) i`,
    [size.catalogueTracks],
  );

  // Mixes are made where their owner lives. About 3% drafts, 3% deactivated, and published dates over the last
  // 400 days, so roughly 9% have passed their 12 months of hosting. Written oldest first, as time would have.
  await client.query(
    `create temporary table bench_owner as select id, latitude, longitude, row_number() over (order by id) rn from app_user`,
  );
  await client.query(
    `with draw as (select i, random() g, random() s, random() age, 1 + floor(random() * $2::int)::int owner_rn
                     from generate_series(1, $1::int) i)
     insert into mix (id, owner_id, title, genre, cover, mp3, audio_bytes, duration_seconds, bitrate, waveform_state,
                      latitude, longitude, status, published_at, expires_at, deactivated_at, play_count, created_at, updated_at)
     select gen_random_uuid(), o.id, 'Bench mix ' || i, (${GENRES_SQL})[1 + floor(g * ${GENRE_CODES.length})::int],
            md5('cover' || i) || '.jpg', md5('audio' || i) || '.mp3', 120000000, 3600, 320, 'ready',
            o.latitude, o.longitude,
            case when s < 0.03 then 'draft' else 'published' end,
            case when s < 0.03 then null else now() - age * interval '400 days' end,
            case when s < 0.03 then null else now() - age * interval '400 days' + interval '12 months' end,
            case when s > 0.97 then now() - interval '1 day' else null end,
            floor(s * 500)::int, now() - age * interval '400 days' - interval '1 hour', now()
       from draw join bench_owner o on o.rn = draw.owner_rn
      order by age desc`,
    [size.mixes, size.users],
  );

  // Tracklists of 5 to 30 entries drawn from the catalogue, each written together (as update-mix does).
  await client.query(`create temporary table bench_track as select id, row_number() over (order by id) rn from track`);
  await client.query(
    `insert into mix_track (id, mix_id, track_id, position, start_time, end_time)
     select gen_random_uuid(), m.id, t.id, p, (p - 1) * 240, p * 240
       from mix m
       cross join lateral generate_series(1, 5 + (abs(hashtext(m.id::text)) % 26)) p
       join bench_track t on t.rn = 1 + (abs(hashtext(m.id::text || p::text)) % $1::int)
      order by m.created_at, m.id, p`,
    [size.catalogueTracks],
  );

  // Every member saved a few mixes.
  await client.query(`create temporary table bench_mix as select id, row_number() over (order by id) rn from mix`);
  await client.query(
    `with draw as (select u.id user_id, 1 + floor(random() * $1::int)::int mix_rn, random() age
                     from app_user u cross join generate_series(1, 3))
     insert into saved_mix (user_id, mix_id, saved_at)
     select distinct on (user_id, m.id) user_id, m.id, now() - age * interval '100 days'
       from draw join bench_mix m on m.rn = draw.mix_rn`,
    [size.mixes],
  );
}
