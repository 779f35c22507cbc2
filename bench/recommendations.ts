/**
 * The "For you" row (docs/home-feed.md#for-you) on a seeded simulation of members with hidden tastes: mixes belong to
 * latent clusters (tastes), each member likes one or two clusters, plays mixes mostly from them (weighted by each mix's
 * appeal), finishes and saves the ones they like. For a sample of members some saves are held out (the save and every
 * listen of that mix removed, as if it had not happened yet); the row is then asked for, through the service and its
 * one statement, and scored by hit rate at 10: the share of members with a held-out save among their first ten, and
 * the share of held-out saves found (recall at 10). The baseline is the week's most listened mixes, with the same
 * exclusions (the member's own, saved and finished mixes). BENCH_RECS_MEMBERS, BENCH_RECS_MIXES and BENCH_RECS_SEED
 * change the world, BENCH_RECS_TESTED how many members are asked.
 */
import { randomUUID } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import pg from 'pg';
import { migrate, openOrm } from '../api/src/db/orm.js';
import { FINISHED_LISTEN_SQL, POPULAR_DAYS, RECOMMENDABLE_SQL } from '../api/src/modules/recommendations/recommendation.policy.js';
import { RecommendationsService } from '../api/src/modules/recommendations/recommendations.service.js';
import { GENRE_CODES } from '../api/src/shared/domain.js';
import { Random } from '../api/src/shared/random.js';
import { named } from '../api/src/shared/sql.js';
import { statementsOf } from '../api/test/support/statements.js';
import { benchDatabase, out } from './support.js';

const MEMBERS = Number(process.env.BENCH_RECS_MEMBERS ?? 5_000);
const MIXES = Number(process.env.BENCH_RECS_MIXES ?? 2_000);
const SEED = process.env.BENCH_RECS_SEED ?? 'mixcrate-recommendations';
const DJS = Math.max(20, Math.round(MIXES / 10));
const CLUSTERS = 16;
const TEST_MEMBERS = Number(process.env.BENCH_RECS_TESTED ?? 600);
const HOLD_OUT_SHARE = 0.2;
const K = 10;
const MIX_SECONDS = 3600;
const CITIES: [number, number][] = [
  [52.52, 13.405],
  [51.5074, -0.1278],
  [48.8566, 2.3522],
  [40.7128, -74.006],
  [34.0522, -118.2437],
  [35.6762, 139.6503],
  [-33.8688, 151.2093],
  [-23.5505, -46.6333],
];

const random = new Random(SEED);
/** A draw from the standard normal distribution (Box-Muller). */
const normal = () => Math.sqrt(-2 * Math.log(Math.max(random.next(), 1e-12))) * Math.cos(2 * Math.PI * random.next());
/** An index drawn with the given weights. */
function weighted(weights: readonly number[], total = weights.reduce((sum, weight) => sum + weight, 0)): number {
  let left = random.next() * total;
  for (let index = 0; index < weights.length; index++) {
    left -= weights[index];
    if (left <= 0) return index;
  }
  return weights.length - 1;
}

interface Member {
  id: string;
  city: [number, number];
  tastes: number[];
}
interface Mix {
  id: string;
  owner: Member;
  cluster: number;
  appeal: number;
}
interface Act {
  member: string;
  mix: string;
  startedAt: Date;
  share: number;
  saved: boolean;
}

/** The world: DJs (one cluster each) and their mixes, listeners with hidden tastes, and what each of them played. */
function simulate() {
  // Some tastes are much commoner than others (a long tail), as genres are.
  const clusterSize = Array.from({ length: CLUSTERS }, (_, index) => 1 / (index + 1) ** 0.8);
  const memberAt = (tastes: number[]): Member => ({ id: randomUUID(), city: random.pick(CITIES), tastes });
  const djs = Array.from({ length: DJS }, () => memberAt([weighted(clusterSize)]));
  const mixes: Mix[] = Array.from({ length: MIXES }, () => {
    const owner = random.pick(djs);
    return { id: randomUUID(), owner, cluster: owner.tastes[0], appeal: Math.exp(normal()) };
  });
  const byCluster = Array.from({ length: CLUSTERS }, (_, cluster) => mixes.filter((mix) => mix.cluster === cluster));
  const listeners = Array.from({ length: MEMBERS }, () => {
    const first = weighted(clusterSize);
    const second = weighted(clusterSize);
    return memberAt(second === first ? [first] : [first, second]);
  });
  const acts: Act[] = [];
  const now = Date.now();
  for (const member of listeners) {
    const played = new Set<string>();
    const plays = random.int(6, 40);
    for (let play = 0; play < plays; play++) {
      // 70% the main taste, 20% the second (or the main again), 10% anything.
      const roll = random.next();
      const cluster = roll < 0.7 ? member.tastes[0] : roll < 0.9 ? (member.tastes[1] ?? member.tastes[0]) : random.int(0, CLUSTERS - 1);
      const pool = byCluster[cluster].length > 0 ? byCluster[cluster] : mixes;
      const mix = pool[weighted(pool.map((candidate) => candidate.appeal))];
      if (played.has(mix.id)) continue;
      played.add(mix.id);
      const liked = member.tastes.includes(mix.cluster);
      const finished = random.chance(liked ? 0.6 : 0.2);
      acts.push({
        member: member.id,
        mix: mix.id,
        startedAt: new Date(now - random.between(1, 6 * 24) * 3_600_000),
        share: finished ? random.between(0.95, 1) : random.between(0.05, 0.6),
        saved: finished && random.chance(liked ? 0.5 : 0.08),
      });
    }
  }
  return { djs, listeners, mixes, acts };
}

async function insertWorld(client: pg.Client, world: ReturnType<typeof simulate>): Promise<void> {
  const members = [...world.djs, ...world.listeners];
  await client.query(
    `insert into app_user (id, email, password_hash, has_opted_in, user_name, display_name, user_type, bio, latitude, longitude,
                           is_agreed_to_conduct, current_mix_pos, created_at, updated_at)
     select id, 'rec' || n || '@example.com', repeat('x', 60), false, 'rec_' || n, 'Rec ' || n, 'listener', '', lat, lng, true, 0, now(), now()
       from unnest($1::uuid[], $2::float8[], $3::float8[]) with ordinality as m(id, lat, lng, n)`,
    [members.map((m) => m.id), members.map((m) => m.city[0]), members.map((m) => m.city[1])],
  );
  await client.query(
    `insert into mix (id, owner_id, title, genre, cover, mp3, audio_bytes, duration_seconds, bitrate, waveform_state,
                      latitude, longitude, status, published_at, expires_at, play_count, created_at, updated_at)
     select m.id, m.owner, 'Rec mix ' || n, m.genre, md5(m.id::text) || '.jpg', md5(m.id::text) || '.mp3', 1, ${MIX_SECONDS}, 320, 'ready',
            u.latitude, u.longitude, 'published', now() - interval '90 days', now() + interval '270 days', 0,
            now() - interval '91 days', now()
       from unnest($1::uuid[], $2::uuid[], $3::text[]) with ordinality as m(id, owner, genre, n) join app_user u on u.id = m.owner`,
    [world.mixes.map((m) => m.id), world.mixes.map((m) => m.owner.id), world.mixes.map((m) => GENRE_CODES[m.cluster % GENRE_CODES.length])],
  );
  await client.query(
    `insert into listen (id, mix_id, user_id, started_at, ended_at, alive_at)
     select gen_random_uuid(), mix, member, started, started + make_interval(secs => share * ${MIX_SECONDS}), started
       from unnest($1::uuid[], $2::uuid[], $3::timestamptz[], $4::float8[]) as a(member, mix, started, share)`,
    [world.acts.map((a) => a.member), world.acts.map((a) => a.mix), world.acts.map((a) => a.startedAt), world.acts.map((a) => a.share)],
  );
  const saves = world.acts.filter((a) => a.saved);
  await client.query(
    `insert into saved_mix (user_id, mix_id, saved_at)
     select member, mix, started + interval '1 hour' from unnest($1::uuid[], $2::uuid[], $3::timestamptz[]) as s(member, mix, started)`,
    [saves.map((a) => a.member), saves.map((a) => a.mix), saves.map((a) => a.startedAt)],
  );
  await client.query('vacuum analyze');
}

/** The baseline: the week's most listened visible mixes, without the member's own, saved and finished ones. */
const MOST_POPULAR_SQL = `
select p.mix_id from (select mix_id, count(*) as listens from listen
                       where started_at > now() - make_interval(days => :popularDays) group by mix_id) p
  join mix on mix.id = p.mix_id and ${RECOMMENDABLE_SQL}
 where not exists (select 1 from saved_mix s where s.user_id = :viewer and s.mix_id = p.mix_id)
   and not exists (select 1 from listen l join mix fm on fm.id = l.mix_id
                    where l.user_id = :viewer and l.mix_id = p.mix_id and ${FINISHED_LISTEN_SQL('l', 'fm')})
 order by p.listens desc, p.mix_id limit :k`;

const percentile = (values: number[], share: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
};
const pct = (value: number) => `${(100 * value).toFixed(1)}%`;

async function main(): Promise<void> {
  const started = Date.now();
  const world = simulate();
  // BENCH_RECS_KEEP=1 keeps the database (mixcrate_bench_recs, made afresh each run) to look at plans afterwards.
  const database = await benchDatabase(process.env.BENCH_RECS_KEEP ? { name: 'mixcrate_bench_recs', fresh: true } : undefined);
  const orm = await openOrm(database.url);
  const client = new pg.Client({ connectionString: database.url });
  try {
    await migrate(orm);
    await client.connect();
    await insertWorld(client, world);
    // Hold out a fifth of the saves (at least one) of members with three or more: their saves and listens of those mixes go.
    const savesBy = new Map<string, string[]>();
    for (const act of world.acts) if (act.saved) savesBy.set(act.member, [...(savesBy.get(act.member) ?? []), act.mix]);
    const eligible = [...savesBy.entries()].filter(([, saves]) => saves.length >= 3);
    const tested = random.sample(eligible, Math.min(TEST_MEMBERS, eligible.length)).map(([member, saves]) => ({
      member,
      heldOut: random.sample(saves, Math.max(1, Math.round(saves.length * HOLD_OUT_SHARE))),
    }));
    for (const { member, heldOut } of tested) {
      await client.query('delete from saved_mix where user_id = $1 and mix_id = any($2::uuid[])', [member, heldOut]);
      await client.query('delete from listen where user_id = $1 and mix_id = any($2::uuid[])', [member, heldOut]);
    }
    await client.query('vacuum analyze');

    const service = new RecommendationsService(orm);
    const score = { ours: { members: 0, saves: 0 }, popular: { members: 0, saves: 0 } };
    const reasons = new Map<string, number>();
    const latencies: number[] = [];
    let heldOutTotal = 0;
    let statements = 0;
    for (const { member, heldOut } of tested) {
      const before = performance.now();
      let rows: Awaited<ReturnType<typeof service.forYou>> = [];
      const sent = await statementsOf(async () => {
        rows = await service.forYou(member, { first: K });
      });
      latencies.push(performance.now() - before);
      statements = Math.max(statements, sent.length);
      for (const row of rows) reasons.set(row.reason.kind, (reasons.get(row.reason.kind) ?? 0) + 1);
      const popular = await client.query<{ mix_id: string }>(
        ...toPg(named(MOST_POPULAR_SQL, { viewer: member, popularDays: POPULAR_DAYS, k: K })),
      );
      const lists = { ours: rows.map((row) => row.mix.id), popular: popular.rows.map((row) => row.mix_id) };
      heldOutTotal += heldOut.length;
      for (const name of ['ours', 'popular'] as const) {
        const found = heldOut.filter((mix) => lists[name].includes(mix)).length;
        score[name].saves += found;
        if (found > 0) score[name].members += 1;
      }
    }

    const saves = world.acts.filter((a) => a.saved).length;
    out(`\n## Recommendations: hit rate at ${K} on held-out saves (seed "${SEED}")`);
    out(
      `world: ${MEMBERS.toLocaleString('en')} listeners with hidden tastes in ${CLUSTERS} clusters, ${DJS} DJs, ` +
        `${MIXES.toLocaleString('en')} mixes, ${world.acts.length.toLocaleString('en')} listens, ${saves.toLocaleString('en')} saves; ` +
        `${tested.length} members tested, ${heldOutTotal} saves held out`,
    );
    out('');
    out(`| ranking | hit rate @${K} (members) | recall @${K} (held-out saves) |`);
    out('| --- | --- | --- |');
    out(`| For you (ours) | ${pct(score.ours.members / tested.length)} | ${pct(score.ours.saves / heldOutTotal)} |`);
    out(
      `| most popular this week (baseline) | ${pct(score.popular.members / tested.length)} | ${pct(score.popular.saves / heldOutTotal)} |`,
    );
    out('');
    out(
      `For you: p50 ${percentile(latencies, 0.5).toFixed(1)} ms, p95 ${percentile(latencies, 0.95).toFixed(1)} ms per row, ` +
        `${statements} statement(s); reasons shown: ${[...reasons.entries()].map(([kind, count]) => `${kind} ${count}`).join(', ')}`,
    );
    out(
      `load average ${loadavg()
        .map((value) => value.toFixed(2))
        .join(' ')} on ${availableParallelism()} cores; ${((Date.now() - started) / 1000).toFixed(0)} s in all`,
    );
  } finally {
    await client.end().catch(() => undefined);
    await orm.close();
    await database.close();
  }
}

/** `named` answers the driver's `?` placeholders; pg numbers them. */
function toPg([sql, values]: [string, unknown[]]): [string, unknown[]] {
  let index = 0;
  return [sql.replace(/\?/g, () => `$${++index}`), values];
}

await main();
