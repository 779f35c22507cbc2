/**
 * The feed at 100,000 and 1,000,000 mixes (BENCH_FEED_SIZES; a tenth as many members): p50/p95 latency of every feed
 * scenario through GraphQL (the whole app, via app.inject) and of the exact SQL those requests issued replayed on a
 * plain connection, side by side (BENCH_FEED_PLANS=1 adds the query plans). Seeding a million mixes takes minutes, so
 * each seeded database is kept (named by its size and a hash of the seed) and reused by the next run;
 * BENCH_FEED_RESEED=1 seeds again.
 * Targets: every scenario's GraphQL p95 under 25 ms at 100,000 and under 40 ms at 1,000,000, at most 2 statements
 * per page, and GraphQL no more than 2x the raw SQL.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
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
import { benchDatabase, out, ROOT } from './support.js';

const SIZES = (process.env.BENCH_FEED_SIZES ?? '100000,1000000').split(',').map((mixes) => ({
  mixes: Number(mixes),
  users: Math.max(1_000, Math.round(Number(mixes) / 10)),
  catalogueTracks: 50_000,
}));
type Size = (typeof SIZES)[number];
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 600);
const WARMUP = 60;
const PAGE_SIZE = 20;
/** p95 targets by size (mixes). */
const TARGET_P95_MS = (mixes: number) => (mixes > 100_000 ? 40 : 25);
const TARGET_STATEMENTS = 2;
/** GraphQL p95 over the raw SQL's, in every scenario. */
const TARGET_RATIO = 1.3;

const emptyResult = (): ScenarioResult => ({
  graphql: [],
  interpreted: [],
  cpu: [],
  interpretedCpu: [],
  raw: [],
  statements: 0,
  matches: [],
});

/**
 * The seeded database of a size, kept between runs: named by the size and a hash of the seed. Migrations added later
 * are applied to it at the start of each run, as to any database.
 */
function seededDatabaseName(size: Size): string {
  const hash = createHash('sha256')
    .update(readFileSync(join(ROOT, 'bench/seed.ts')))
    .digest('hex');
  return `mixcrate_bench_feed_${size.mixes}_${hash.slice(0, 10)}`;
}

interface ScenarioResult {
  graphql: number[];
  /** The same requests on graphql-js (GRAPHQL_COMPILED_EXECUTION=0), timed right beside the compiled ones. */
  interpreted: number[];
  /** CPU of this process (the whole API in-process) per request, microseconds: compiled, then graphql-js. */
  cpu: number[];
  interpretedCpu: number[];
  raw: number[];
  statements: number;
  matches: number[];
}

/**
 * What the home carousel asks for: a page of cards with owner, tracklist preview (docs/mix-page.md#mix-card: a card shows the first 4
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

async function measure(size: Size): Promise<{ results: Map<string, ScenarioResult>; load: string }> {
  const database = await benchDatabase({ name: seededDatabaseName(size), fresh: process.env.BENCH_FEED_RESEED === '1' });
  const databaseUrl = database.url;
  const databaseName = new URL(databaseUrl).pathname.slice(1);
  const dataDir = await mkdtemp(join(tmpdir(), 'mixcrate-bench-data-'));
  try {
    out(`feed benchmark: ${size.mixes.toLocaleString('en')} mixes, ${size.users.toLocaleString('en')} members, database ${databaseName}`);
    const orm = await openOrm(databaseUrl);
    await migrate(orm);
    const raw = new pg.Client({ connectionString: databaseUrl });
    await raw.connect();
    let started = process.hrtime.bigint();
    if (database.created) {
      await seedFeedWorld(raw, size);
      out(`seeded in ${(elapsedMs(started) / 1000).toFixed(1)} s (kept as ${databaseName} for the next run)`);
    } else {
      // A kept database: the previous run's viewer goes, so this one signs up afresh.
      await raw.query(`delete from app_user where email = 'bench-viewer@example.com'`);
      out(`reusing the seeded database ${databaseName}`);
    }

    const config = loadConfig({
      NODE_ENV: 'production',
      JWT_SECRET: randomBytes(32).toString('hex'),
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'silent',
      // One client sends every request here: the per-client budgets would stop it, and they are not what is measured.
      RATE_LIMIT_REQUESTS: '1000000000',
      RATE_LIMIT_GRAPHQL_COST: '1000000000',
    });
    const services = await createServices(config, orm, pino({ level: 'silent' }));
    const app = await buildApp(services);
    await app.ready();
    const interpretedApp = await buildApp({ ...services, config: { ...config, GRAPHQL_COMPILED_EXECUTION: false } });
    await interpretedApp.ready();

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
    // Only the statements a request issues count, not those of the server's background work (the listens sweeper)
    // that happen to run meanwhile: a request's work carries its capture in its async context.
    const capturing = new AsyncLocalStorage<string[]>();
    connection.execute = ((...args: Parameters<typeof original>) => {
      capturing.getStore()?.push(platform.formatQuery(String(args[0]), (args[1] as unknown[]) ?? []));
      return original(...args);
    }) as typeof connection.execute;

    // Half the requests send a point (as a public-API client might); half send none, as the web app does, so the feed
    // measures from the viewer's stored location.
    const request = (scenario: Scenario) => {
      const point = BENCH_POINTS[Math.floor(Math.random() * BENCH_POINTS.length)];
      return {
        genre: scenario.genre(),
        radiusKm: scenario.radiusKm,
        from: Math.random() < 0.5 ? { latitude: point.latitude, longitude: point.longitude } : null,
        first: PAGE_SIZE,
      };
    };
    const graphql = async (variables: ReturnType<typeof request>, on = app) => {
      const response = await on.inject({
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
    const results = new Map<string, ScenarioResult>(SCENARIOS.map((scenario) => [scenario.name, emptyResult()]));
    const plans = new Map<string, string[]>();
    started = process.hrtime.bigint();
    for (let i = 0; i < REQUESTS; i++) {
      const scenario = pickScenario();
      const variables = request(scenario);
      const statements: string[] = [];
      const feed = await capturing.run(statements, () => graphql(variables));
      const timed = async (on: typeof app) => {
        const cpuBefore = process.cpuUsage();
        const start = process.hrtime.bigint();
        await graphql(variables, on);
        const cpu = process.cpuUsage(cpuBefore);
        return { ms: elapsedMs(start), cpuUs: cpu.user + cpu.system };
      };
      // Which executor goes first alternates, so neither always finds the other's pages warm.
      const firstCompiled = i % 2 === 0;
      const first = await timed(firstCompiled ? app : interpretedApp);
      const second = await timed(firstCompiled ? interpretedApp : app);
      const [compiled, interpreted] = firstCompiled ? [first, second] : [second, first];
      const rawMs = await replay(statements);
      const result = results.get(scenario.name);
      if (!result) continue;
      result.graphql.push(compiled.ms);
      result.cpu.push(compiled.cpuUs);
      result.interpreted.push(interpreted.ms);
      result.interpretedCpu.push(interpreted.cpuUs);
      result.raw.push(rawMs);
      result.matches.push(feed.totalCount);
      result.statements = Math.max(result.statements, statements.length);
      if (!plans.has(scenario.name)) plans.set(scenario.name, statements);
    }
    out(`measured ${REQUESTS} feed requests (page size ${PAGE_SIZE}) in ${(elapsedMs(started) / 1000).toFixed(1)} s`);
    // Latency on a shared machine depends on what else runs: say how busy it was.
    out(`machine: ${availableParallelism()} CPUs, load average ${loadBefore} before and ${loadavg()[0].toFixed(2)} after measuring`);
    out();

    if (process.env.BENCH_FEED_PLANS === '1') out('query plans (EXPLAIN ANALYZE of the feed statements, first request of each scenario):');
    for (const [name, statements] of process.env.BENCH_FEED_PLANS === '1' ? plans : []) {
      for (const statement of statements.filter((sql) => /^(with|select)\b[\s\S]*\bfrom mix\b/.test(sql.trim()))) {
        const { rows } = await raw.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers, costs off) ${statement}`);
        out();
        out(`-- ${name}: ${statement.replace(/\s+/g, ' ').slice(0, 400)}`);
        for (const row of rows) out(`   ${row['QUERY PLAN']}`);
      }
    }

    connection.execute = original;
    await raw.end();
    await interpretedApp.close();
    await app.close();
    await services.close();
    await orm.close();
    return { results, load: `${loadBefore} -> ${loadavg()[0].toFixed(2)}` };
  } finally {
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const measured: { size: Size; results: Map<string, ScenarioResult>; load: string }[] = [];
  for (const size of SIZES) measured.push({ size, ...(await measure(size)) });
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  const p95Of = (values: number[]) => percentile(sorted(values), 95);
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  const cell = (text: string | number, width: number) => String(text).padStart(width);
  const sizeName = (size: Size) => (size.mixes >= 1_000_000 ? `${size.mixes / 1_000_000}M` : `${size.mixes / 1_000}k`);
  let latencyMet = true;
  let ratioMet = true;
  let statementsMet = true;
  for (const { size, results, load } of measured) {
    out();
    out(
      `feed at ${sizeName(size)} mixes, ${availableParallelism()} CPUs, load average ${load}: compiled GraphQL (graphql-jit) and graphql-js, each beside the raw SQL it issued`,
    );
    const header = `${'scenario'.padEnd(40)} ${cell('stmts', 5)} ${cell('matches', 8)} | ${cell('p50', 7)} ${cell('p95', 7)} ${cell('js p95', 7)} ${cell('raw p95', 7)} | ${cell('ratio', 5)} ${cell('js', 5)} | ${cell('cpu µs', 7)} ${cell('js cpu', 7)}`;
    out(header);
    out('-'.repeat(header.length));
    const row = (name: string, result: ScenarioResult) => {
      const p95 = p95Of(result.graphql);
      const rawP95 = p95Of(result.raw);
      const matches = result.matches.length ? sorted(result.matches)[Math.floor(result.matches.length / 2)].toLocaleString('en') : '';
      return `${name.padEnd(40)} ${cell(result.statements || '', 5)} ${cell(matches, 8)} | ${ms(percentile(sorted(result.graphql), 50))} ${ms(p95)} ${ms(p95Of(result.interpreted))} ${ms(rawP95)} | ${cell((p95 / rawP95).toFixed(2), 5)} ${cell((p95Of(result.interpreted) / rawP95).toFixed(2), 5)} | ${cell(mean(result.cpu).toFixed(0), 7)} ${cell(mean(result.interpretedCpu).toFixed(0), 7)}`;
    };
    for (const { name } of SCENARIOS) {
      const result = results.get(name);
      if (!result || result.graphql.length === 0) continue;
      if (p95Of(result.graphql) >= TARGET_P95_MS(size.mixes)) latencyMet = false;
      if (p95Of(result.graphql) / p95Of(result.raw) > TARGET_RATIO) ratioMet = false;
      if (result.statements > TARGET_STATEMENTS) statementsMet = false;
      out(row(name, result));
    }
    out('-'.repeat(header.length));
    const all = [...results.values()].reduce<ScenarioResult>((sum, result) => {
      for (const key of ['graphql', 'interpreted', 'cpu', 'interpretedCpu', 'raw', 'matches'] as const) sum[key].push(...result[key]);
      return sum;
    }, emptyResult());
    out(row('all requests', all));
  }
  out(
    '(milliseconds; "matches" is the median totalCount (a lower bound where the answer says so); "stmts" the most SQL statements one request issued; raw SQL replays them in order on one connection; "ratio" is GraphQL p95 over raw p95; "cpu µs" this process\'s CPU per request, the whole API in-process)',
  );
  out();
  out(`target every scenario's GraphQL p95 < 25 ms at 100,000 and < 40 ms at 1,000,000: ${latencyMet ? 'met' : 'MISSED'}`);
  out(`target at most ${TARGET_STATEMENTS} statements per page: ${statementsMet ? 'met' : 'MISSED'}`);
  out(`target GraphQL/raw p95 <= ${TARGET_RATIO}x in every scenario: ${ratioMet ? 'met' : 'MISSED'}`);
  process.exitCode = latencyMet && statementsMet && ratioMet ? 0 : 1;
}

await main();
