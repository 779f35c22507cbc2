/**
 * The feed at 100,000 mixes: p50/p95 latency of the home feed through GraphQL (the whole app, via app.inject) and of the
 * exact SQL those requests issued replayed on a plain connection, side by side, plus the query plans.
 * Targets: GraphQL p95 under 25 ms, and GraphQL no more than 2x the raw SQL.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { loadConfig } from '../api/src/config.js';
import { migrate, openOrm } from '../api/src/db/orm.js';
import { buildApp } from '../api/src/http/app.js';
import { createServices } from '../api/src/services.js';
import { GENRE_CODES } from '../api/src/shared/domain.js';
import { BENCH_POINTS, seedFeedWorld } from './seed.js';
import { benchDatabase, out } from './support.js';

const SIZE = {
  users: Number(process.env.BENCH_USERS ?? 10_000),
  mixes: Number(process.env.BENCH_MIXES ?? 100_000),
  catalogueTracks: 50_000,
};
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 600);
const WARMUP = 60;
const PAGE_SIZE = 20;
const TARGET_P95_MS = 25;
const TARGET_RATIO = 2;

/**
 * What the home carousel asks for: a page of cards with owner, tracklist preview (SPEC §9: a card shows the first 4
 * tracks), distance, saved state, and the total.
 */
const FEED_QUERY = `query Feed($genre: Genre!, $radiusKm: Float!, $from: LocationInput, $first: Int!) {
  feed(genre: $genre, radiusKm: $radiusKm, from: $from, first: $first) {
    totalCount
    pageInfo { hasNextPage endCursor }
    edges { cursor node {
      id title genre coverUrl audioUrl createdAt publishedAt isNewUpload expiringIn isExpired distanceKm isOwner savedByMe
      location { latitude longitude }
      owner { id userName displayName imageUrl }
      tracks(first: 4) { position track { id title creators { name } label { name } coverUrl } }
    } }
  }
}`;

interface Scenario {
  name: string;
  weight: number;
  genre: () => string;
  radiusKm: number;
}

const anyGenre = () => GENRE_CODES[Math.floor(Math.random() * GENRE_CODES.length)].toUpperCase();
const SCENARIOS: Scenario[] = [
  { name: 'all genres, everywhere (home default)', weight: 30, genre: () => 'ALL', radiusKm: 20_000 },
  { name: 'one genre, everywhere', weight: 20, genre: anyGenre, radiusKm: 20_000 },
  { name: 'one genre, 500 km', weight: 15, genre: anyGenre, radiusKm: 500 },
  { name: 'all genres, 100 km', weight: 10, genre: () => 'ALL', radiusKm: 100 },
  { name: 'all genres, 1,000 km', weight: 15, genre: () => 'ALL', radiusKm: 1_000 },
  { name: 'all genres, 5,000 km', weight: 10, genre: () => 'ALL', radiusKm: 5_000 },
];

function pickScenario(): Scenario {
  let roll = Math.random() * SCENARIOS.reduce((sum, scenario) => sum + scenario.weight, 0);
  for (const scenario of SCENARIOS) {
    roll -= scenario.weight;
    if (roll < 0) return scenario;
  }
  return SCENARIOS[0];
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const ms = (value: number) => value.toFixed(2).padStart(7);
const elapsedMs = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

async function main(): Promise<void> {
  const database = await benchDatabase();
  const databaseUrl = database.url;
  const databaseName = new URL(databaseUrl).pathname.slice(1);
  const dataDir = await mkdtemp(join(tmpdir(), 'mixcrate-bench-data-'));
  try {
    out(`feed benchmark: ${SIZE.mixes.toLocaleString('en')} mixes, ${SIZE.users.toLocaleString('en')} members, database ${databaseName}`);
    const orm = await openOrm(databaseUrl);
    await migrate(orm);
    const raw = new pg.Client({ connectionString: databaseUrl });
    await raw.connect();
    let started = process.hrtime.bigint();
    await seedFeedWorld(raw, SIZE);
    out(`seeded in ${(elapsedMs(started) / 1000).toFixed(1)} s`);

    const config = loadConfig({
      NODE_ENV: 'production',
      JWT_SECRET: randomBytes(32).toString('hex'),
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'silent',
    });
    const services = await createServices(config, orm, pino({ level: 'silent' }));
    const app = await buildApp(services);
    await app.ready();

    // The viewer: a member in Berlin who saved a few mixes (so "saved by me" has something to find).
    const signUp = await app.inject({
      method: 'POST',
      url: '/api/user/create-user',
      payload: { email: 'bench-viewer@example.com', password: 'Mixcrate1!', has_opted_in: false },
    });
    const token = signUp.json().token as string;
    await app.inject({
      method: 'PATCH',
      url: '/api/user/update-location',
      headers: { 'x-auth-token': token },
      payload: { location: { latitude: 52.52, longitude: 13.405 } },
    });

    const connection = services.orm.em.getConnection();
    const platform = services.orm.em.getPlatform();
    const original = connection.execute.bind(connection);
    let captured: string[] | null = null;
    connection.execute = ((...args: Parameters<typeof original>) => {
      captured?.push(platform.formatQuery(String(args[0]), (args[1] as unknown[]) ?? []));
      return original(...args);
    }) as typeof connection.execute;

    const request = (scenario: Scenario) => {
      const point = BENCH_POINTS[Math.floor(Math.random() * BENCH_POINTS.length)];
      return {
        genre: scenario.genre(),
        radiusKm: scenario.radiusKm,
        from: { latitude: point.latitude, longitude: point.longitude },
        first: PAGE_SIZE,
      };
    };
    const graphql = async (variables: ReturnType<typeof request>) => {
      const response = await app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        payload: { query: FEED_QUERY, variables },
      });
      const body = response.json();
      if (response.statusCode !== 200 || body.errors) throw new Error(`feed failed: ${response.body.slice(0, 500)}`);
      return body.data.feed as { totalCount: number; edges: unknown[] };
    };
    const replay = async (statements: string[]) => {
      const start = process.hrtime.bigint();
      for (const statement of statements) await raw.query(statement);
      return elapsedMs(start);
    };

    const loadBefore = loadavg()[0].toFixed(2);
    for (let i = 0; i < WARMUP; i++) await graphql(request(pickScenario()));

    // Each request: once to record its statements, then timed through GraphQL and, right after, as raw SQL.
    const results = new Map<string, { graphql: number[]; raw: number[]; statements: number; matches: number[] }>(
      SCENARIOS.map((scenario) => [scenario.name, { graphql: [], raw: [], statements: 0, matches: [] }]),
    );
    const plans = new Map<string, string[]>();
    started = process.hrtime.bigint();
    for (let i = 0; i < REQUESTS; i++) {
      const scenario = pickScenario();
      const variables = request(scenario);
      captured = [];
      const feed = await graphql(variables);
      const statements = captured;
      captured = null;
      const start = process.hrtime.bigint();
      await graphql(variables);
      const graphqlMs = elapsedMs(start);
      const rawMs = await replay(statements);
      const result = results.get(scenario.name);
      result?.graphql.push(graphqlMs);
      result?.raw.push(rawMs);
      result?.matches.push(feed.totalCount);
      if (result) result.statements = Math.max(result.statements, statements.length);
      if (!plans.has(scenario.name)) plans.set(scenario.name, statements);
    }
    out(`measured ${REQUESTS} feed requests (page size ${PAGE_SIZE}) in ${(elapsedMs(started) / 1000).toFixed(1)} s`);
    // Latency on a shared machine depends on what else runs: say how busy it was.
    out(`machine: ${availableParallelism()} CPUs, load average ${loadBefore} before and ${loadavg()[0].toFixed(2)} after measuring`);
    out();

    const header = `${'scenario'.padEnd(40)} ${'share'.padStart(5)} ${'matches'.padStart(8)} ${'stmts'.padStart(5)} | ${'GraphQL p50'.padStart(11)} ${'p95'.padStart(7)} | ${'raw SQL p50'.padStart(11)} ${'p95'.padStart(7)} | ${'ratio p50'.padStart(9)} ${'p95'.padStart(5)}`;
    out(header);
    out('-'.repeat(header.length));
    const all = { graphql: [] as number[], raw: [] as number[] };
    for (const [name, result] of results) {
      if (result.graphql.length === 0) continue;
      all.graphql.push(...result.graphql);
      all.raw.push(...result.raw);
      const g = [...result.graphql].sort((a, b) => a - b);
      const r = [...result.raw].sort((a, b) => a - b);
      const medianMatches = [...result.matches].sort((a, b) => a - b)[Math.floor(result.matches.length / 2)];
      out(
        `${name.padEnd(40)} ${`${Math.round((100 * g.length) / REQUESTS)}%`.padStart(5)} ${String(medianMatches).padStart(8)} ${String(result.statements).padStart(5)} | ${ms(percentile(g, 50)).padStart(11)} ${ms(percentile(g, 95))} | ${ms(percentile(r, 50)).padStart(11)} ${ms(percentile(r, 95))} | ${(percentile(g, 50) / percentile(r, 50)).toFixed(2).padStart(9)} ${(percentile(g, 95) / percentile(r, 95)).toFixed(2).padStart(5)}`,
      );
    }
    const g = all.graphql.sort((a, b) => a - b);
    const r = all.raw.sort((a, b) => a - b);
    const ratio95 = percentile(g, 95) / percentile(r, 95);
    const ratio50 = percentile(g, 50) / percentile(r, 50);
    out('-'.repeat(header.length));
    out(
      `${'ALL (weighted mix)'.padEnd(40)} ${'100%'.padStart(5)} ${''.padStart(8)} ${''.padStart(5)} | ${ms(percentile(g, 50)).padStart(11)} ${ms(percentile(g, 95))} | ${ms(percentile(r, 50)).padStart(11)} ${ms(percentile(r, 95))} | ${ratio50.toFixed(2).padStart(9)} ${ratio95.toFixed(2).padStart(5)}`,
    );
    out(
      '(milliseconds; "matches" is the median totalCount; "stmts" the SQL statements one request issued; raw SQL replays them in order on one connection)',
    );
    out();
    const p95Met = percentile(g, 95) < TARGET_P95_MS;
    const ratioMet = ratio95 < TARGET_RATIO;
    out(`target GraphQL p95 < ${TARGET_P95_MS} ms: ${p95Met ? 'met' : 'MISSED'} (${percentile(g, 95).toFixed(2)} ms)`);
    out(`target GraphQL/raw p95 < ${TARGET_RATIO}x: ${ratioMet ? 'met' : 'MISSED'} (${ratio95.toFixed(2)}x)`);
    out();

    out('query plans (EXPLAIN ANALYZE of the count and the page statement, first request of each scenario):');
    for (const [name, statements] of plans) {
      for (const statement of statements.filter((sql) =>
        /^select \(select coalesce|^select count\(\*\)::int as count from mix|^with page/.test(sql.trim()),
      )) {
        const { rows } = await raw.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers, costs off) ${statement}`);
        out();
        out(`-- ${name}: ${statement.replace(/\s+/g, ' ').slice(0, 400)}`);
        for (const row of rows) out(`   ${row['QUERY PLAN']}`);
      }
    }

    connection.execute = original;
    await raw.end();
    await app.close();
    await services.close();
    await orm.close();
    process.exitCode = p95Met && ratioMet ? 0 : 1;
  } finally {
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
