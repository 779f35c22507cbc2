/**
 * Tracklist lookup at 100,000 and at 1,000,000 catalogue tracks (generated, invented words with a Zipf-like spread,
 * so common title words are common and artist names rare): p50/p95/p99 latency of CatalogueService.lookup for a
 * 30-row tracklist of corrupted rows (typos, swapped words, versions written differently...), the import rate through
 * the same streaming import `npm run catalogue:import` uses, and the size of the lookup index.
 * Targets: p95 under 50 ms at 100,000 tracks and under 40 ms at 1,000,000.
 * BENCH_TRACKLIST_DB=PREFIX keeps one database per size (PREFIX_100000, ...) and reuses it on the next run, so a
 * change to the lookup is timed without importing 1,000,000 tracks again (migrations still run on it);
 * BENCH_TRACKLIST_RESEED=1 imports afresh. BENCH_TRACKLIST_EXPLAIN=1 prints the plan of one tracklist's statement, as
 * EXPLAIN (ANALYZE, BUFFERS) shows it.
 */
import { readFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import pino from 'pino';
import { migrate, type Orm, openOrm } from '../api/src/db/orm.js';
import { CatalogueService } from '../api/src/modules/tracks/catalogue/catalogue.service.js';
import { candidateStatement } from '../api/src/modules/tracks/catalogue/catalogue-lookup.js';
import { importCatalogue } from '../api/src/modules/tracks/catalogue/import.js';
import { typedText } from '../api/src/modules/tracks/catalogue/normalise.js';
import { Random } from '../api/src/shared/random.js';
import { corruptQueries } from '../api/test/support/query-corruptions.js';
import { type BenchDatabase, benchDatabase, out } from './support.js';

const SIZES = (process.env.BENCH_TRACKLIST_SIZES ?? '100000,1000000').split(',').map(Number);
const LOOKUPS = Number(process.env.BENCH_TRACKLIST_LOOKUPS ?? 200);
const WARMUP = 20;
const ROWS = 30;
const TARGETS: Record<number, number> = { 100000: 50, 1000000: 40 };

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ra',
  'su',
  'to',
  'vi',
  'da',
  'el',
  'on',
  'ar',
  'bri',
  'cho',
  'dre',
  'fa',
  'gu',
  'ha',
  'jo',
  'ke',
  'lu',
  'ma',
  'no',
  'pe',
  'qui',
  'ri',
  'sa',
  'te',
  'ul',
  'va',
  'wen',
  'xi',
  'yo',
  'zu',
  'an',
  'be',
  'ce',
  'di',
  'fo',
  'gi',
  'ho',
  'in',
  'ja',
  'ki',
  'le',
  'mo',
  'nu',
  'or',
  'pi',
  're',
  'si',
  'tu',
  'ur',
  've',
  'wi',
  'ya',
  'ze',
  'sha',
  'tra',
  'ster',
  'ban',
  'cor',
  'del',
  'fin',
  'gar',
  'hel',
  'lin',
  'mar',
  'nor',
  'pol',
  'ran',
  'sol',
  'tin',
  'vel',
  'zor',
  'ash',
  'ell',
  'ott',
];

/** An invented word from its number (the same number, the same word). */
function word(n: number, salt: number): string {
  const random = new Random(n * 7919 + salt);
  const length = 2 + (random.next() < 0.45 ? 1 : 0) + (random.next() < 0.1 ? 1 : 0);
  let text = '';
  for (let index = 0; index < length; index += 1) text += random.pick(SYLLABLES);
  return text;
}
const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Title words with a Zipf-like spread over 40,000 words: a few very common, most rare. */
const TITLE_WORDS = 40_000;
const cumulative = (() => {
  const weights = new Float64Array(TITLE_WORDS);
  let total = 0;
  for (let index = 0; index < TITLE_WORDS; index += 1) {
    total += 1 / (index + 1) ** 0.9;
    weights[index] = total;
  }
  return weights.map((value) => value / total);
})();
function zipf(random: Random): number {
  const target = random.next();
  let low = 0;
  let high = TITLE_WORDS - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((cumulative[middle] as number) < target) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Catalogue track `n` of the synthetic catalogue, as a JSON line. */
function syntheticLine(n: number): string {
  const random = new Random(n + 1_000_003);
  const artistOf = (id: number) => `${capital(word(id % 5000, 1))} ${capital(word(id, 2))}`;
  const artists = Math.max(1000, Math.floor(n / 6));
  const main = artistOf(random.int(0, artists));
  const creators = [{ id: null, name: main }];
  if (random.chance(0.15)) creators.push({ id: null, name: artistOf(random.int(0, artists)) });
  const words = Array.from({ length: random.pick([1, 2, 2, 2, 3, 3, 4]) }, () => capital(word(zipf(random), 3)));
  const roll = random.next();
  const suffix =
    roll < 0.55 ? '' : roll < 0.7 ? ' (Extended Mix)' : roll < 0.75 ? ' (Radio Edit)' : ` (${artistOf(random.int(0, artists))} Remix)`;
  return JSON.stringify({
    source: 'bench',
    external_id: String(n),
    title: `${words.join(' ')}${suffix}`,
    creators,
    label: { id: null, name: `${capital(word(random.int(0, 3000), 4))} Records` },
    release_date: `20${String(random.int(10, 25))}-0${random.int(1, 9)}-1${random.int(0, 9)}`,
    buy: true,
  });
}

async function* lines(from: number, to: number): AsyncGenerator<string> {
  let chunk = '';
  for (let n = from; n < to; n += 1) {
    chunk += `${syntheticLine(n)}\n`;
    if (chunk.length > 256 * 1024) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const KEPT = process.env.BENCH_TRACKLIST_DB;

/** One size's catalogue: imported (with the import's rate and the index's size), or a kept one reused. */
async function catalogue(service: CatalogueService, loaded: number, size: number, reused: boolean): Promise<void> {
  out(`\n${size.toLocaleString('en')} tracks`);
  if (reused) out('  import: reusing the kept database');
  else {
    const started = performance.now();
    let lastPrint = 0;
    const summary = await importCatalogue(service, lines(loaded, size), 'jsonl', {
      batchSize: 2000,
      onProgress: (progress) => {
        if (performance.now() - lastPrint < 5000) return;
        lastPrint = performance.now();
        process.stderr.write(`  importing: ${(loaded + progress.rows).toLocaleString('en')} of ${size.toLocaleString('en')}\n`);
      },
    });
    const seconds = (performance.now() - started) / 1000;
    out(
      `  import: ${summary.rows.toLocaleString('en')} rows in ${seconds.toFixed(1)} s = ${Math.round(summary.rows / seconds).toLocaleString('en')} rows/s (created ${summary.created.toLocaleString('en')}, refused ${summary.refused})`,
    );
  }
  await service.vacuum();
  const index = await service.indexBytes();
  out(
    `  index: ${mb(index.total)} (${Object.entries(index.tables)
      .map(([name, bytes]) => `${name} ${mb(bytes)}`)
      .join(', ')})`,
  );
}

async function main(): Promise<void> {
  out(`tracklist lookup bench (${availableParallelism()} cores, load ${loadavg()[0]?.toFixed(2)})`);
  let failed = false;
  let shared: { database: BenchDatabase; orm: Orm } | null = null;
  let loaded = 0;
  try {
    for (const size of SIZES) {
      // Kept databases: one per size. Otherwise one database, each size imported on top of the one before.
      let database: BenchDatabase;
      let orm: Orm;
      if (KEPT) {
        database = await benchDatabase({ name: `${KEPT}_${size}`, fresh: process.env.BENCH_TRACKLIST_RESEED === '1' });
        orm = await openOrm(database.url, pino({ level: 'silent' }));
        loaded = 0;
      } else {
        shared ??= await (async () => {
          const made = await benchDatabase();
          return { database: made, orm: await openOrm(made.url, pino({ level: 'silent' })) };
        })();
        ({ database, orm } = shared);
      }
      try {
        await migrate(orm);
        const service = new CatalogueService(orm);
        await catalogue(service, loaded, size, KEPT !== undefined && !database.created);
        loaded = size;
        failed = (await lookups(orm, service, size)) || failed;
      } finally {
        if (KEPT) {
          await orm.close();
          await database.close();
          out(`  kept ${database.url}`);
        }
      }
    }
  } finally {
    if (shared) {
      await shared.orm.close();
      await shared.database.close();
    }
  }
  if (failed) process.exitCode = 1;
}

/** The CPU seconds the database's backends have used so far (read from /proc: the server runs on this machine). */
async function backendCpuSeconds(orm: Orm): Promise<number | null> {
  const pids = await orm.em.fork().execute<{ pid: number }[]>('select pid from pg_stat_activity where datname = current_database()');
  let ticks = 0;
  for (const { pid } of pids) {
    try {
      const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.split(' ') ?? [];
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      return null;
    }
  }
  return ticks / 100;
}

/** Buffers read (from PostgreSQL's cache or the disk) in this database so far. */
async function buffersRead(orm: Orm): Promise<number> {
  // Backends report their counts at most once a second.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const [row] = await orm.em
    .fork()
    .execute<{ blocks: string }[]>('select blks_hit + blks_read as blocks from pg_stat_database where datname = current_database()');
  return Number(row?.blocks ?? 0);
}

/** Times the lookups on one size's catalogue; true when its target was missed. */
async function lookups(orm: Orm, service: CatalogueService, size: number): Promise<boolean> {
  const wanted = (LOOKUPS + WARMUP) * ROWS * 1.5;
  const sample = await orm.em
    .fork()
    .execute<{ id: string; title: string; creators: { name: string }[] }[]>(
      `select id, title, creators from track tablesample bernoulli (${Math.min(100, (100 * wanted) / size)}) repeatable (42)`,
    );
  const queries = corruptQueries(sample, (LOOKUPS + WARMUP) * ROWS, 7 + size);
  const timings: number[] = [];
  let first = 0;
  let top5 = 0;
  let apiCpu = { user: 0, system: 0 };
  let backendCpu: number | null = null;
  let buffers = 0;
  for (let lookup = 0; lookup < LOOKUPS + WARMUP && (lookup + 1) * ROWS <= queries.length; lookup += 1) {
    if (lookup === WARMUP) {
      buffers = await buffersRead(orm);
      backendCpu = await backendCpuSeconds(orm);
      apiCpu = process.cpuUsage();
    }
    const rows = queries.slice(lookup * ROWS, (lookup + 1) * ROWS);
    const begun = performance.now();
    const answers = await service.lookup(rows.map(({ artist, title }) => ({ artist, title })));
    const ms = performance.now() - begun;
    if (lookup < WARMUP) continue;
    timings.push(ms);
    rows.forEach((row, index) => {
      const ids = (answers[index] ?? []).map((track) => track.id);
      if (ids[0] === row.expected) first += 1;
      if (ids.includes(row.expected)) top5 += 1;
    });
  }
  const apiUsed = process.cpuUsage(apiCpu);
  const backendAfter = await backendCpuSeconds(orm);
  const backendUsed = backendCpu === null || backendAfter === null ? null : backendAfter - backendCpu;
  buffers = (await buffersRead(orm)) - buffers;
  timings.sort((a, b) => a - b);
  // How busy the machine was: a fixed piece of PostgreSQL work (about 60 ms on an idle core of our machines).
  const calibration: number[] = [];
  for (let run = 0; run < 3; run += 1) {
    const begun = performance.now();
    await orm.em.fork().execute('select count(*) from generate_series(1, 1000000)');
    calibration.push(performance.now() - begun);
  }
  out(`  machine: load ${loadavg()[0]?.toFixed(2)}, reference query ${Math.min(...calibration).toFixed(0)} ms (about 60 ms when idle)`);
  const p95 = percentile(timings, 95);
  const target = TARGETS[size];
  out(
    `  lookup of ${ROWS} rows (${timings.length} tracklists): p50 ${percentile(timings, 50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, p99 ${percentile(timings, 99).toFixed(1)} ms${target ? ` (target p95 < ${target} ms: ${p95 < target ? 'met' : 'MISSED'})` : ''}`,
  );
  const count = Math.max(1, timings.length);
  out(
    `  per lookup: ${Math.round(buffers / count).toLocaleString('en')} buffers read, API CPU ${((apiUsed.user + apiUsed.system) / 1000 / count).toFixed(1)} ms, database CPU ${backendUsed === null ? 'unknown' : `${((1000 * backendUsed) / count).toFixed(1)} ms`}`,
  );
  if (process.env.BENCH_TRACKLIST_EXPLAIN) {
    const statement = candidateStatement(queries.slice(0, ROWS).map((row) => typedText(row.artist, row.title)));
    if (statement) {
      const plan = await orm.em.fork().execute<{ 'QUERY PLAN': string }[]>(`explain (analyze, buffers) ${statement.sql}`, statement.params);
      for (const line of plan) out(`    ${line['QUERY PLAN']}`);
    }
  }
  const rows = timings.length * ROWS;
  out(`  right track first ${((100 * first) / rows).toFixed(1)}%, in the top 5 ${((100 * top5) / rows).toFixed(1)}% (synthetic catalogue)`);
  return target !== undefined && p95 >= target;
}

await main();
