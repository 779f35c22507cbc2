/**
 * The track catalogue: writing tracks (imports, the demo catalogue) with their lookup index, and looking typed
 * tracklists up. Candidate retrieval is one SQL statement for a whole tracklist over b-tree indexes (the typed words'
 * deletion variants find catalogue words within their typo budget; the rarest of those words' postings find tracks);
 * the ranking happens in code (score.ts). Manual tracks (`is_manual`, typed by uploaders) are never indexed, so they
 * never answer anyone's lookup.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../../db/orm.js';
import type { Creator, TrackLabel } from '../track.entity.js';
import { type CatalogueInput, type LookupRow, parseLookupRows } from './catalogue.inputs.js';
import { catalogueText, indexWords, queryWords, type TrackText, typedText } from './normalise.js';
import { rankCandidates } from './score.js';
import { deletionKeys } from './typos.js';

/** A catalogue track with the SPEC's track fields (wire names are the skins' business). */
export interface CatalogueTrack {
  id: string;
  title: string;
  creators: Creator[];
  label: TrackLabel | null;
  cover: string | null;
  isManual: boolean;
  buy: boolean;
  newRelease: boolean;
  releaseDate: string | null;
  popularity: number;
}

export interface WriteSummary {
  created: number;
  updated: number;
  unchanged: number;
}

/** Answers per row at most this many candidates (SPEC: the confirm step offers up to 5 options). */
export const CANDIDATES_PER_ROW = 5;
/** Below this score a candidate is no option at all (a perfect match scores about 5). */
export const MIN_SCORE = 1.6;

/**
 * Retrieval budgets. A row reads the postings of its rarest typed words (each with its typo variants) while their
 * total stays within POSTING_BUDGET, and always those of its rarest word. When every typed word is common, one word's
 * postings tell nothing (at 1,000,000 tracks a common word holds thousands of tracks, and the first cut would keep
 * arbitrary ones): the row then also reads its second rarest word, and the rarest word of each typed field (artist,
 * title), as long as they hold at most INTERSECT_BUDGET postings together, and the tracks holding most of the words
 * read (their intersection) come first, a typed word found as typed counting for more than a typo variant of it (in
 * a dense vocabulary a name's variants are other artists' names). Among tracks matching as many typed words, the
 * second cut keeps those with fewer words: the scorer rewards covering the track's words (a typed word too short for
 * a typo, "Vrpe" for "Vepe", matches nothing here but still counts there). FIRST_CUT tracks per row are kept after counting the words read, SECOND_CUT
 * after counting all typed words; those are handed to the scorer.
 */
const POSTING_BUDGET = 400;
const INTERSECT_BUDGET = 20_000;
const FIRST_CUT = 30;
const SECOND_CUT = 12;
/** Typed words per row that look for candidates (more say nothing new; hostile rows carry hundreds). */
const WORDS_PER_ROW = 12;

interface TrackRow {
  id: string;
  title: string;
  creators: Creator[];
  label: TrackLabel | null;
  cover: string | null;
  is_manual: boolean;
  buy: boolean;
  new_release: boolean;
  release_date: string | Date | null;
  popularity: number;
}

const TRACK_COLUMNS =
  't.id, t.title, t.creators, t.label, t.cover, t.is_manual, t.buy, t.new_release, t.release_date::text as release_date, t.popularity';

const trackOf = (row: TrackRow): CatalogueTrack => ({
  id: row.id,
  title: row.title,
  creators: row.creators,
  label: row.label,
  cover: row.cover,
  isManual: row.is_manual,
  buy: row.buy,
  newRelease: row.new_release,
  releaseDate: row.release_date === null ? null : String(row.release_date).slice(0, 10),
  popularity: row.popularity,
});

const json = (value: unknown) => JSON.stringify(value);

/** Something that hands out an EntityManager: the ORM (a fork per call) or an EntityManager itself. */
export type EmSource = Orm | EntityManager;

export class CatalogueService {
  constructor(private readonly source: EmSource) {}

  private em(): EntityManager {
    return ('em' in this.source ? this.source.em.fork() : this.source.fork()) as EntityManager;
  }

  /**
   * Candidates for each typed row of a tracklist, in row order: up to 5 catalogue tracks each, best first; an empty
   * list means "No options found". Rows are `{ artist, title }` (see parseLookupRows); a row missing either is a 400
   * 'Missing: Empty fields'. One database round trip for the whole list.
   */
  async lookup(input: unknown): Promise<CatalogueTrack[][]> {
    const rows = parseLookupRows(input);
    return this.lookupRows(rows);
  }

  /** The same for rows already read. */
  async lookupRows(rows: readonly LookupRow[]): Promise<CatalogueTrack[][]> {
    const texts = rows.map((row) => typedText(row.artist, row.title));
    const keys: { key: string; tok: number }[] = [];
    const toks: { row: number; tok: number; field: number; word: string }[] = [];
    texts.forEach((text, row) => {
      const artistWords = new Set([...text.artist, ...text.others]);
      for (const word of queryWords(text).slice(0, WORDS_PER_ROW)) {
        const tok = toks.length;
        toks.push({ row, tok, field: artistWords.has(word) ? 0 : 1, word });
        for (const key of deletionKeys(word)) keys.push({ key, tok });
      }
    });
    const answers: CatalogueTrack[][] = rows.map(() => []);
    if (toks.length === 0) return answers;
    // The lateral subqueries' LIMIT / OFFSET keep each one an index probe per outer row: the planner cannot guess how
    // few rows the JSON parameters hold, and would otherwise join whole tables.
    // The statement keeps its cost estimate under jit_above_cost (per-row LIMITs in laterals): JIT compiling would
    // cost more than the statement itself (50 ms at 1,000,000 tracks), which reads a few thousand index entries.
    const found = await this.em().execute<(TrackRow & { row: number })[]>(
      `with q as (select key, tok from jsonb_to_recordset(?::jsonb) as q(key text, tok int)),
            toks as (select "row", tok, field, word from jsonb_to_recordset(?::jsonb) as t("row" int, tok int, field int, word text)),
            cand as (
              select distinct q.tok, k.word_id
                from q cross join lateral (select word_id from catalogue_word_key k where k.key = q.key offset 0) k),
            tokstat as (
              select c.tok, t."row", t.field, array_agg(c.word_id) as words, sum(w.df) as df,
                     coalesce(min(c.word_id) filter (where w.word = t.word), 0) as exact
                from cand c
                join toks t on t.tok = c.tok
                cross join lateral (select df, word from catalogue_word w where w.id = c.word_id and w.df > 0 limit 1) w
               group by c.tok, t."row", t.field),
            chosen as (
              select * from (
                select s.*, coalesce(sum(s.df) over (partition by s."row" order by s.df, s.tok
                                                     rows between unbounded preceding and 1 preceding), 0) as before,
                       row_number() over (partition by s."row" order by s.df, s.tok) as nth,
                       row_number() over (partition by s."row", s.field order by s.df, s.tok) as field_nth
                  from tokstat s) x
               where before = 0 or before + df <= ? or ((nth <= 2 or field_nth = 1) and before + df <= ?)),
            first_cut as (
              select r."row", h.track_no
                from (select distinct "row" from chosen) r
                cross join lateral (
                  select p.track_no from chosen c cross join lateral (
                    select word_id, track_no from catalogue_posting p where p.word_id = any(c.words) offset 0) p
                   where c."row" = r."row"
                   group by p.track_no
                   order by 2 * count(*) + count(*) filter (where p.word_id = c.exact) desc, p.track_no desc limit ?) h),
            rowcodes as (
              select t."row", array_agg(c.word_id::bigint * 1024 + c.tok) as codes
                from cand c join toks t on t.tok = c.tok group by t."row"),
            scored as (
              select f."row", t.id, t.popularity, cardinality(t.search_words) as size,
                     (select count(distinct code % 1024) from unnest(rc.codes) as code
                       where (code / 1024)::int = any(t.search_words)) as matched
                from first_cut f
                join rowcodes rc on rc."row" = f."row"
                cross join lateral (
                  select id, popularity, search_words from track where search_no = f.track_no and not is_manual limit 1) t),
            second_cut as (
              select "row", id from (
                select s.*, row_number() over (partition by s."row" order by s.matched desc, s.size, s.popularity desc, s.id) as rank
                  from scored s) x
               where rank <= ?)
       select b."row", ${TRACK_COLUMNS} from second_cut b cross join lateral (select * from track where id = b.id limit 1) t`,
      [json(keys), json(toks), POSTING_BUDGET, INTERSECT_BUDGET, FIRST_CUT, SECOND_CUT],
    );
    const byRow = new Map<number, { item: CatalogueTrack; text: TrackText; popularity: number }[]>();
    for (const row of found) {
      const list = byRow.get(row.row) ?? [];
      list.push({ item: trackOf(row), text: catalogueText(row.title, row.creators), popularity: row.popularity });
      byRow.set(row.row, list);
    }
    texts.forEach((text, row) => {
      const candidates = byRow.get(row) ?? [];
      answers[row] = rankCandidates(text, candidates, CANDIDATES_PER_ROW, MIN_SCORE).map((scored) => scored.item);
    });
    return answers;
  }

  /**
   * Creates or updates tracks by external id (source + id) in one transaction, indexing what changed. A second write
   * of the same track updates it (or changes nothing), never duplicates it.
   */
  async write(inputs: readonly CatalogueInput[], em?: EntityManager): Promise<WriteSummary> {
    const run = (tx: EntityManager) => writeTracks(tx, inputs);
    return em ? em.transactional(run) : this.em().transactional(run);
  }

  /** Indexes tracks written by others (the demo world's references, older rows): up to `batch` at a time; returns how many. */
  async indexPending(batch = 2000): Promise<number> {
    let total = 0;
    for (;;) {
      const done = await this.em().transactional(async (em) => {
        const rows = await em.execute<IndexRow[]>(
          `select id, search_no, title, creators, search_words from track
            where search_words is null and not is_manual order by search_no limit ? for update skip locked`,
          [batch],
        );
        await indexTracks(em, rows);
        return rows.length;
      });
      total += done;
      if (done < batch) return total;
    }
  }

  /** Rebuilds the whole lookup index from the tracks (after the normaliser changed). */
  async reindex(): Promise<number> {
    await this.em().transactional(async (em) => {
      await em.execute('truncate catalogue_posting, catalogue_word_key, catalogue_word');
      await em.execute('update track set search_words = null where search_words is not null');
    });
    return this.indexPending();
  }

  /**
   * Refreshes the planner's statistics and the visibility map of the index tables after a large write (lookups read
   * postings index-only). Runs outside any transaction.
   */
  async vacuum(): Promise<void> {
    await this.em().execute('vacuum (analyze) track, catalogue_word, catalogue_word_key, catalogue_posting');
  }

  /** The size of the lookup index in bytes: its tables and their indexes, and the tracks' word lists. */
  async indexBytes(): Promise<{ tables: Record<string, number>; total: number }> {
    const rows = await this.em().execute<{ name: string; bytes: string }[]>(
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
  async refreshPopularity(): Promise<void> {
    await this.em().transactional(async (em) => {
      await em.execute(`create temporary table catalogue_use on commit drop as
        select track_id, sum(n)::int as n from (
          select track_id, count(*) as n from mix_track group by track_id
          union all select track_id, count(*) from saved_track group by track_id
          union all select mt.track_id, sum(m.play_count) from mix_track mt join mix m on m.id = mt.mix_id group by mt.track_id
        ) u group by track_id`);
      await em.execute(
        'update track t set popularity = u.n from catalogue_use u where u.track_id = t.id and t.popularity is distinct from u.n',
      );
      await em.execute(
        'update track t set popularity = 0 where t.popularity <> 0 and not exists (select 1 from catalogue_use u where u.track_id = t.id)',
      );
    });
  }
}

interface IndexRow {
  id: string;
  search_no: number;
  title: string;
  creators: Creator[];
  search_words: number[] | null;
}

interface ExistingRow extends IndexRow {
  external_source: string;
  external_id: string;
  label: TrackLabel | null;
  cover: string | null;
  release_date: string | null;
  buy: boolean;
  new_release: boolean;
}

const sameTrack = (row: ExistingRow, input: CatalogueInput) =>
  row.title === input.title &&
  json(row.creators) === json(input.creators) &&
  json(row.label) === json(input.label) &&
  row.cover === input.cover &&
  row.release_date === input.releaseDate &&
  row.buy === input.buy &&
  row.new_release === input.newRelease;

/** Writes a batch of catalogue tracks (inside the caller's transaction). */
export async function writeTracks(em: EntityManager, inputs: readonly CatalogueInput[]): Promise<WriteSummary> {
  // The last of several rows for one external id wins.
  const byKey = new Map<string, CatalogueInput>();
  for (const input of inputs) byKey.set(`${input.source}\u0000${input.externalId}`, input);
  const unique = [...byKey.values()];
  const summary: WriteSummary = { created: 0, updated: 0, unchanged: 0 };
  if (unique.length === 0) return summary;
  const existing = await em.execute<ExistingRow[]>(
    `select t.id, t.search_no, t.title, t.creators, t.search_words, t.external_source, t.external_id, t.label, t.cover,
            t.release_date::text as release_date, t.buy, t.new_release
       from jsonb_to_recordset(?::jsonb) as k(source text, "externalId" text)
       join track t on t.external_source = k.source and t.external_id = k."externalId"`,
    [json(unique.map((input) => ({ source: input.source, externalId: input.externalId })))],
  );
  const found = new Map(existing.map((row) => [`${row.external_source}\u0000${row.external_id}`, row]));
  const creates: CatalogueInput[] = [];
  const updates: { id: string; input: CatalogueInput }[] = [];
  const reindex: IndexRow[] = [];
  for (const input of unique) {
    const row = found.get(`${input.source}\u0000${input.externalId}`);
    if (!row) creates.push({ ...input, id: input.id ?? randomUUID() });
    else if (sameTrack(row, input)) {
      summary.unchanged += 1;
      if (row.search_words === null) reindex.push(row);
    } else {
      updates.push({ id: row.id, input });
      reindex.push({ ...row, title: input.title, creators: input.creators });
    }
  }
  const record = (input: CatalogueInput, id: string) => ({
    id,
    title: input.title,
    creators: input.creators,
    label: input.label,
    cover: input.cover,
    release_date: input.releaseDate,
    buy: input.buy,
    new_release: input.newRelease,
    external_source: input.source,
    external_id: input.externalId,
  });
  const RECORD = `r(id uuid, title text, creators jsonb, label jsonb, cover text, release_date date, buy boolean, new_release boolean,
                    external_source text, external_id text)`;
  if (creates.length > 0) {
    const inserted = await em.execute<{ id: string; search_no: number }[]>(
      `insert into track (id, title, creators, label, cover, release_date, buy, new_release, external_source, external_id, is_manual, created_at)
       select r.id, r.title, r.creators, nullif(r.label, 'null'::jsonb), r.cover, r.release_date, r.buy, r.new_release,
              r.external_source, r.external_id, false, now()
         from jsonb_to_recordset(?::jsonb) as ${RECORD}
       returning id, search_no`,
      [json(creates.map((input) => record(input, input.id as string)))],
    );
    const numbers = new Map(inserted.map((row) => [row.id, row.search_no]));
    for (const input of creates) {
      reindex.push({
        id: input.id as string,
        search_no: numbers.get(input.id as string) as number,
        title: input.title,
        creators: input.creators,
        search_words: null,
      });
    }
    summary.created += creates.length;
  }
  if (updates.length > 0) {
    await em.execute(
      `update track t set title = r.title, creators = r.creators, label = nullif(r.label, 'null'::jsonb), cover = r.cover,
              release_date = r.release_date, buy = r.buy, new_release = r.new_release
         from jsonb_to_recordset(?::jsonb) as ${RECORD}
        where t.id = r.id`,
      [json(updates.map((update) => record(update.input, update.id)))],
    );
    summary.updated += updates.length;
  }
  await indexTracks(em, reindex);
  return summary;
}

/**
 * (Re)indexes tracks: their words join the vocabulary (new words with their deletion keys), their postings and the
 * words' counts follow the change from the old words (`search_words`) to the new.
 */
export async function indexTracks(em: EntityManager, rows: readonly IndexRow[]): Promise<void> {
  if (rows.length === 0) return;
  const wordsOf = rows.map((row) => indexWords(catalogueText(row.title, row.creators)));
  const vocabulary = [...new Set(wordsOf.flat())];
  const created = vocabulary.length
    ? await em.execute<{ id: number; word: string }[]>(
        `insert into catalogue_word (word) select w from jsonb_array_elements_text(?::jsonb) as w order by w
         on conflict (word) do nothing returning id, word`,
        [json(vocabulary)],
      )
    : [];
  if (created.length > 0) {
    const keys: [string, number][] = [];
    for (const { id, word } of created) for (const key of deletionKeys(word)) keys.push([key, id]);
    for (let start = 0; start < keys.length; start += 50_000) {
      await em.execute(
        `insert into catalogue_word_key (key, word_id)
         select k->>0, (k->>1)::int from jsonb_array_elements(?::jsonb) as k on conflict do nothing`,
        [json(keys.slice(start, start + 50_000))],
      );
    }
  }
  const ids = new Map(created.map((row) => [row.word, row.id]));
  const missing = vocabulary.filter((word) => !ids.has(word));
  if (missing.length > 0) {
    const known = await em.execute<{ id: number; word: string }[]>(
      'select id, word from catalogue_word where word in (select jsonb_array_elements_text(?::jsonb))',
      [json(missing)],
    );
    for (const row of known) ids.set(row.word, row.id);
  }
  const removed: [number, number][] = [];
  const added: [number, number][] = [];
  const delta = new Map<number, number>();
  const updates: { id: string; words: number[] }[] = [];
  rows.forEach((row, index) => {
    const next = [...new Set((wordsOf[index] ?? []).map((word) => ids.get(word) as number))];
    const previous = new Set(row.search_words ?? []);
    const nextSet = new Set(next);
    for (const id of previous) {
      if (nextSet.has(id)) continue;
      removed.push([id, row.search_no]);
      delta.set(id, (delta.get(id) ?? 0) - 1);
    }
    for (const id of next) {
      if (previous.has(id)) continue;
      added.push([id, row.search_no]);
      delta.set(id, (delta.get(id) ?? 0) + 1);
    }
    updates.push({ id: row.id, words: next });
  });
  if (removed.length > 0) {
    await em.execute(
      `delete from catalogue_posting p using jsonb_array_elements(?::jsonb) as r
        where p.word_id = (r->>0)::int and p.track_no = (r->>1)::int`,
      [json(removed)],
    );
  }
  if (added.length > 0) {
    await em.execute(
      `insert into catalogue_posting (word_id, track_no)
       select (r->>0)::int, (r->>1)::int from jsonb_array_elements(?::jsonb) as r on conflict do nothing`,
      [json(added)],
    );
  }
  const changes = [...delta].filter(([, change]) => change !== 0).sort(([a], [b]) => a - b);
  if (changes.length > 0) {
    await em.execute(
      `update catalogue_word w set df = greatest(w.df + (d->>1)::int, 0)
         from jsonb_array_elements(?::jsonb) as d where w.id = (d->>0)::int`,
      [json(changes)],
    );
  }
  await em.execute(
    `update track t set search_words = array(select jsonb_array_elements_text(u.words)::int)
       from jsonb_to_recordset(?::jsonb) as u(id uuid, words jsonb) where t.id = u.id`,
    [json(updates)],
  );
}
