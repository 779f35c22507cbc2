/**
 * `npm run bench -- search [--scale N]`: search over 1,000,000 mixes, 100,000 members and 1,000,000 tracks (times N),
 * seeded with set-based SQL (search-seed.ts). Mixed queries made from the seeded documents: one to four words, 20% with
 * a typo in a word long enough to have a typo budget, 30% cut short as while typing. It prints p50/p95 of a suggestion
 * (SearchService.suggest: at most 8, grouped) and of a results page (SearchService.search: 20 results of every kind),
 * beside the baselines a team would reach for on the same documents and queries: PostgreSQL full-text search
 * (tsvector + GIN, prefix on the last word) and pg_trgm (GIN, similarity), with each engine's top-1 on the typo'd
 * queries. Then the index's build time, an incremental update's time and the index's size. Targets: p95 under 30 ms
 * for a suggestion and under 60 ms for a results page. Set BENCH_SEARCH_KEEP=1 to keep the seeded database (named
 * BENCH_SEARCH_DATABASE, by default after the scale).
 */
import { loadavg } from 'node:os';
import pg from 'pg';
import { migrate, openOrm } from '../api/src/db/orm.js';
import { savedByViewerSql } from '../api/src/modules/library/library.service.js';
import { MixesService } from '../api/src/modules/mixes/mixes.service.js';
import { SearchService } from '../api/src/modules/search/search.service.js';
import { buildIndex, indexPending } from '../api/src/modules/search/search-index.js';
import { nameKey } from '../api/src/modules/search/search-text.js';
import { words } from '../api/src/modules/tracks/index.js';
import { TracksService } from '../api/src/modules/tracks/tracks.service.js';
import { Random } from '../api/src/shared/random.js';
import { LocalStorage } from '../api/src/storage/local-storage.js';
import { seedSearchWorld } from './search-seed.js';
import { benchDatabase, out } from './support.js';

const scaleArg = process.argv.indexOf('--scale');
const SCALE = Number(scaleArg > 0 ? process.argv[scaleArg + 1] : (process.env.BENCH_SEARCH_SCALE ?? 1));
const SIZE = { mixes: Math.round(1_000_000 * SCALE), members: Math.round(100_000 * SCALE), tracks: Math.round(1_000_000 * SCALE) };
const QUERIES = Number(process.env.BENCH_SEARCH_QUERIES ?? 300);
const TARGETS = { suggestion: 30, page: 60 };

interface Query {
  text: string;
  kind: 'typo' | 'prefix' | 'plain';
  /** The exact-title keys that count as the right answer (the source document's). */
  answer: string;
}

const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};
const f = (value: number) => value.toFixed(1).padStart(7);

/** One typo in a word of 5 letters or more (a letter changed, dropped, doubled or two swapped). */
function typo(random: Random, word: string): string {
  const at = random.int(1, word.length - 2);
  switch (random.int(0, 3)) {
    case 0:
      return word.slice(0, at) + 'aeiourstnl'[random.int(0, 9)] + word.slice(at + 1);
    case 1:
      return word.slice(0, at) + word.slice(at + 1);
    case 2:
      return word.slice(0, at) + word[at] + word.slice(at);
    default:
      return word.slice(0, at - 1) + word[at] + word[at - 1] + word.slice(at + 1);
  }
}

/** The same documents on every run over the same database (by id, not at random), so two versions can be compared. */
async function makeQueries(client: pg.Client): Promise<Query[]> {
  const random = new Random('search-bench-queries');
  const sources = await client.query<{ text: string; key: string }>(
    `select text, key from (
       (select m.title || ' ' || u.display_name as text, m.title as key from mix m join app_user u on u.id = m.owner_id
         where m.status = 'published' and m.deactivated_at is null order by md5(m.id::text) limit $1)
       union all (select display_name, display_name from app_user order by md5(id::text) limit $2)
       union all (select title || ' ' || (creators->0->>'name'), title from track order by md5(id::text) limit $1)) s`,
    [Math.ceil(QUERIES * 0.45), Math.ceil(QUERIES * 0.1)],
  );
  return sources.rows.slice(0, QUERIES).map((row) => {
    const all = words(row.text);
    const count = Math.min(all.length, random.int(1, 4));
    // Mostly the title's own words; with more words, the name too.
    let chosen = all.slice(0, count);
    const draw = random.next();
    if (draw < 0.2) {
      const long = chosen.findIndex((word) => word.length >= 5);
      if (long >= 0) {
        chosen = chosen.map((word, index) => (index === long ? typo(random, word) : word));
        return { text: chosen.join(' '), kind: 'typo', answer: nameKey(row.key) };
      }
    }
    if (draw < 0.5) {
      const last = chosen.at(-1) ?? '';
      if (last.length >= 4) chosen[chosen.length - 1] = last.slice(0, random.int(3, last.length - 1));
      return { text: chosen.join(' '), kind: 'prefix', answer: nameKey(row.key) };
    }
    return { text: chosen.join(' '), kind: 'plain', answer: nameKey(row.key) };
  });
}

async function main() {
  out(
    `search bench: ${SIZE.mixes.toLocaleString('en')} mixes, ${SIZE.members.toLocaleString('en')} members, ${SIZE.tracks.toLocaleString('en')} tracks (scale ${SCALE})`,
  );
  out(
    `load average at start: ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
  const keep = process.env.BENCH_SEARCH_KEEP === '1';
  const database = await benchDatabase(
    keep ? { name: process.env.BENCH_SEARCH_DATABASE ?? `mixcrate_bench_search_${String(SCALE).replace('.', '_')}` } : undefined,
  );
  const orm = await openOrm(database.url);
  await migrate(orm);
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query('create extension if not exists pg_trgm');
  const seeded = (await client.query<{ n: string }>('select count(*) n from mix')).rows[0]?.n !== '0';
  if (!seeded) {
    let start = process.hrtime.bigint();
    await seedSearchWorld(client, SIZE);
    out(`seeded in ${(ms(start) / 1000).toFixed(0)} s`);
    start = process.hrtime.bigint();
    const docs = (await buildIndex(client)) ?? 0;
    await client.query('vacuum analyze search_word, search_doc, search_posting');
    out(`search index built: ${docs.toLocaleString('en')} rows in ${(ms(start) / 1000).toFixed(0)} s`);
    start = process.hrtime.bigint();
    await client.query(`create table bench_text as select kind, ref_id, name_key,
        array_to_string(array(select jsonb_array_elements_text(body->'t') union all select jsonb_array_elements_text(body->'n')
                              union all select jsonb_array_elements_text(body->'o')), ' ') as text from search_doc`);
    await client.query(`alter table bench_text add column tsv tsvector generated always as (to_tsvector('simple', text)) stored`);
    await client.query('create index bench_text_fts on bench_text using gin (tsv)');
    out(`full-text baseline built in ${(ms(start) / 1000).toFixed(0)} s (tsvector column and GIN)`);
    start = process.hrtime.bigint();
    await client.query('create index bench_text_trgm on bench_text using gin (text gin_trgm_ops)');
    await client.query('vacuum analyze bench_text');
    out(`pg_trgm baseline built in ${(ms(start) / 1000).toFixed(0)} s (GIN)`);
  }
  const storage = new LocalStorage('/tmp/mixcrate-bench-search');
  const tracks = new TracksService(orm, storage, async () => []);
  const search = new SearchService(orm, new MixesService(orm, storage, tracks, savedByViewerSql), database.url, { warn: () => undefined });
  const queries = await makeQueries(client);
  const engines: { name: string; run(query: Query, limit: number): Promise<string | null> }[] = [
    {
      name: 'mixcrate search',
      async run(query, limit) {
        if (limit === 8) {
          const found = await search.suggest({ q: query.text });
          const first = found.mixes[0] ?? found.members[0] ?? found.tracks[0];
          return first ? titleOf(first) : null;
        }
        const page = await search.search({ q: query.text, first: limit }, null);
        return page.items[0] ? titleOf(page.items[0]) : null;
      },
    },
    {
      name: 'full-text (tsvector+GIN)',
      async run(query, limit) {
        const terms = words(query.text);
        if (terms.length === 0) return null;
        const tsquery = terms.map((word, index) => (index === terms.length - 1 ? `${word}:*` : word)).join(' & ');
        const rows = await client.query<{ name_key: string }>(
          `select name_key from bench_text where tsv @@ to_tsquery('simple', $1) order by ts_rank(tsv, to_tsquery('simple', $1)) desc limit $2`,
          [tsquery, limit],
        );
        return rows.rows[0]?.name_key ?? null;
      },
    },
    {
      name: 'pg_trgm (GIN, similarity)',
      async run(query, limit) {
        const text = words(query.text).join(' ');
        const rows = await client.query<{ name_key: string }>(
          'select name_key from bench_text where text % $1 order by similarity(text, $1) desc limit $2',
          [text, limit],
        );
        return rows.rows[0]?.name_key ?? null;
      },
    },
  ];
  out();
  out(
    `${QUERIES} queries: ${queries.filter((q) => q.kind === 'typo').length} with a typo, ${queries.filter((q) => q.kind === 'prefix').length} cut short, the rest as written`,
  );
  out(
    `load average before timing: ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
  out();
  out('| engine | suggestion p50 | suggestion p95 | page p50 | page p95 | top-1 typo’d | top-1 prefix | top-1 as written |');
  out('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const engine of engines) {
    for (const query of queries.slice(0, 20)) await engine.run(query, 8);
    const suggestion: number[] = [];
    const page: number[] = [];
    const right = { typo: [0, 0], prefix: [0, 0], plain: [0, 0] };
    for (const query of queries) {
      let start = process.hrtime.bigint();
      await engine.run(query, 8);
      suggestion.push(ms(start));
      start = process.hrtime.bigint();
      const top = await engine.run(query, 20);
      page.push(ms(start));
      const tally = right[query.kind];
      tally[1] += 1;
      if (top === query.answer) tally[0] += 1;
    }
    const pct = ([hit, all]: number[]) => `${all ? Math.round((100 * (hit ?? 0)) / all) : 0}%`;
    out(
      `| ${engine.name} | ${f(quantile(suggestion, 0.5))} ms | ${f(quantile(suggestion, 0.95))} ms | ${f(quantile(page, 0.5))} ms | ${f(quantile(page, 0.95))} ms | ${pct(right.typo)} | ${pct(right.prefix)} | ${pct(right.plain)} |`,
    );
  }
  out(
    `targets: suggestion p95 < ${TARGETS.suggestion} ms, page p95 < ${TARGETS.page} ms. load average after: ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
  out();
  // Incremental update: 100 mixes renamed, each indexed on its own (as the indexer does after a trigger's notice).
  const sample = await client.query<{ id: string }>(`select id from mix where status = 'published' and deactivated_at is null limit 100`);
  const updates: number[] = [];
  for (const [index, row] of sample.rows.entries()) {
    await client.query(`update mix set title = title || ' Reprise' || $2::text where id = $1`, [row.id, index]);
    const start = process.hrtime.bigint();
    await indexPending(() => orm.em.fork());
    updates.push(ms(start));
  }
  out(
    `incremental update (a mix renamed, indexed): p50 ${quantile(updates, 0.5).toFixed(1)} ms, p95 ${quantile(updates, 0.95).toFixed(1)} ms`,
  );
  const sizes = await client.query<{ name: string; bytes: string }>(
    `select relname as name, pg_total_relation_size(oid) as bytes from pg_class
      where relname in ('search_word', 'search_doc', 'search_posting', 'bench_text') and relkind = 'r'
     union all select 'bench_text_fts (GIN)', pg_relation_size('bench_text_fts')
     union all select 'bench_text_trgm (GIN)', pg_relation_size('bench_text_trgm')`,
  );
  const mb = (bytes: string | number) => `${(Number(bytes) / 1024 / 1024).toFixed(0)} MB`;
  const ours = sizes.rows.filter((row) => row.name.startsWith('search_'));
  out(
    `search index size: ${mb(ours.reduce((sum, row) => sum + Number(row.bytes), 0))} (${ours.map((row) => `${row.name} ${mb(row.bytes)}`).join(', ')})`,
  );
  out(
    `baselines: ${sizes.rows
      .filter((row) => row.name.startsWith('bench_'))
      .map((row) => `${row.name} ${mb(row.bytes)}`)
      .join(', ')} (bench_text holds the documents' text and the tsvector)`,
  );
  await search.close();
  await client.end();
  await orm.close();
  await database.close();
}

function titleOf(item: Awaited<ReturnType<SearchService['search']>>['items'][number]): string {
  if (item.kind === 'mix') return nameKey(item.mix.title);
  if (item.kind === 'member') return nameKey(item.member.displayName);
  return nameKey(item.track.title);
}

await main();
