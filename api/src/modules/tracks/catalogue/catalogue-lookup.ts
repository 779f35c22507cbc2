/**
 * Looking typed tracklists up in the catalogue. Candidate retrieval is one SQL statement for a whole tracklist over
 * b-tree indexes (the typed words' deletion variants find catalogue words within their typo budget; the rarest of those
 * words' postings find tracks); the ranking happens in code (score.ts). Manual tracks (`is_manual`, typed by uploaders)
 * are never indexed, so they never answer anyone's lookup.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Creator, TrackLabel } from '../track.entity.js';
import type { LookupRow } from './catalogue.inputs.js';
import { catalogueText, queryWords, type TrackText, typedText } from './normalise.js';
import { rankCandidates } from './score.js';
import { deletionKeys } from './typos.js';

/** A catalogue track with the REST track fields (wire names are the skins' business). */
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

/** Answers per row at most this many candidates (docs/upload.md#tracklist-lookup: the confirm step offers up to 5 options). */
export const CANDIDATES_PER_ROW = 5;
/** Below this score a candidate is no option at all (a perfect match scores about 5). */
export const MIN_SCORE = 1.6;

/**
 * Retrieval budgets. A typed word found as typed in the vocabulary stands for itself; only a word the vocabulary lacks
 * (a typo) is looked up through its deletion keys, which find every catalogue word within its typo budget. (Probing
 * every typed word's keys, and each variant's count, was over half of the index pages read at 1,000,000 tracks: a
 * typed word has about ten keys and, in a dense vocabulary, a handful of real words as variants. A typo that lands on another
 * real word is caught by the intersection below and by the scorer, which compares every typed word with typo budgets.)
 * A row reads the postings of its rarest typed words while their total stays within POSTING_BUDGET, and always those
 * of its rarest word. When those hold many tracks, one word's postings tell little (at 1,000,000 tracks a common word
 * holds thousands of tracks): the row then also reads its second and third rarest words, and the rarest word of each
 * typed field (artist, title), as long as they hold at most INTERSECT_BUDGET postings together, and the tracks holding
 * most of the words read (their intersection) come first, a typed word found as typed counting for more than a typo
 * variant of it (in a dense vocabulary a name's variants are other artists' names). The first cut keeps up to FIRST_CUT
 * tracks per row, and only those holding at most one word read fewer than the best (each track read costs about four
 * pages; the rest would be arbitrary holders of a common word). Among tracks matching as many typed words, the second cut keeps
 * those with fewer words: the scorer rewards covering the track's words (a typed word too short for a typo, "Vrpe" for
 * "Vepe", matches nothing here but still counts there). SECOND_CUT tracks per row are handed to the scorer.
 */
const POSTING_BUDGET = 400;
const INTERSECT_BUDGET = 6_000;
const INTERSECT_WORDS = 3;
const FIRST_CUT = 30;
/** In hits (2 per word read, 1 more when found as typed): one word read fewer than the row's best track. */
const FIRST_CUT_GAP = 2;
const SECOND_CUT = 8;
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

/** The one statement that finds a tracklist's candidates (with its parameters), or null when no row has a word to look for. */
export function candidateStatement(texts: readonly TrackText[]): { sql: string; params: unknown[] } | null {
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
  if (toks.length === 0) return null;
  // The lateral subqueries' LIMIT / OFFSET keep each one an index probe per outer row: the planner cannot guess how
  // few rows the JSON parameters hold, and would otherwise join whole tables.
  // JIT: the statement reads a few thousand index entries (about 3,000 buffers for 30 rows at 1,000,000 tracks), a
  // few milliseconds of work, but its cost estimate (its lateral probes are guessed at 100 rows each) passes
  // jit_above_cost at that size, and compiling it would take longer than running it. The pool turns JIT off for every
  // statement (db/orm.ts), so it never depends on where the estimate falls.
  return {
    sql: `with q as (select key, tok from jsonb_to_recordset(?::jsonb) as q(key text, tok int)),
          toks as (select "row", tok, field, word from jsonb_to_recordset(?::jsonb) as t("row" int, tok int, field int, word text)),
          exact as (
            select t.tok, w.id as word_id, w.df
              from toks t cross join lateral (select id, df from catalogue_word w where w.word = t.word and w.df > 0 limit 1) w),
          fuzzy as (
            select distinct q.tok, k.word_id
              from (select * from q where not exists (select 1 from exact e where e.tok = q.tok)) q
              cross join lateral (select word_id from catalogue_word_key k where k.key = q.key offset 0) k),
          cand as (
            select tok, word_id, df, word_id as exact from exact
            union all
            select f.tok, f.word_id, w.df, 0
              from fuzzy f cross join lateral (select df from catalogue_word w where w.id = f.word_id and w.df > 0 limit 1) w),
          tokstat as (
            select c.tok, t."row", t.field, array_agg(c.word_id) as words, sum(c.df) as df, max(c.exact) as exact
              from cand c join toks t on t.tok = c.tok
             group by c.tok, t."row", t.field),
          chosen as (
            select * from (
              select s.*, coalesce(sum(s.df) over (partition by s."row" order by s.df, s.tok
                                                   rows between unbounded preceding and 1 preceding), 0) as before,
                     row_number() over (partition by s."row" order by s.df, s.tok) as nth,
                     row_number() over (partition by s."row", s.field order by s.df, s.tok) as field_nth
                from tokstat s) x
             where before = 0 or before + df <= ? or ((nth <= ? or field_nth = 1) and before + df <= ?)),
          first_cut as (
            select r."row", h.track_no
              from (select distinct "row" from chosen) r
              cross join lateral (
                select track_no from (select cut.*, max(hits) over () as best from (
                  select p.track_no, 2 * count(*) + count(*) filter (where p.word_id = c.exact) as hits
                    from chosen c cross join lateral (
                      select word_id, track_no from catalogue_posting p where p.word_id = any(c.words) offset 0) p
                   where c."row" = r."row"
                   group by p.track_no
                   order by hits desc, p.track_no desc limit ?) cut) ranked
                 where hits >= best - ?) h),
          rowcodes as (
            select t."row", array_agg(c.word_id::bigint * 1024 + c.tok) as codes
              from cand c join toks t on t.tok = c.tok group by t."row"),
          scored as (
            select f."row", ${TRACK_COLUMNS}, cardinality(t.search_words) as size,
                   (select count(distinct code % 1024) from unnest(rc.codes) as code
                     where (code / 1024)::int = any(t.search_words)) as matched
              from first_cut f
              join rowcodes rc on rc."row" = f."row"
              cross join lateral (select * from track where search_no = f.track_no and not is_manual limit 1) t)
     select * from (
       select s.*, row_number() over (partition by s."row" order by s.matched desc, s.size, s.popularity desc, s.id) as rank
         from scored s) x
      where rank <= ?`,
    params: [
      JSON.stringify(keys),
      JSON.stringify(toks),
      POSTING_BUDGET,
      INTERSECT_WORDS,
      INTERSECT_BUDGET,
      FIRST_CUT,
      FIRST_CUT_GAP,
      SECOND_CUT,
    ],
  };
}

/** Candidates for each typed row, in row order: up to CANDIDATES_PER_ROW catalogue tracks each, best first. */
export async function lookupRows(em: EntityManager, rows: readonly LookupRow[]): Promise<CatalogueTrack[][]> {
  const texts = rows.map((row) => typedText(row.artist, row.title));
  const answers: CatalogueTrack[][] = rows.map(() => []);
  const statement = candidateStatement(texts);
  if (!statement) return answers;
  const found = await em.execute<(TrackRow & { row: number })[]>(statement.sql, statement.params);
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
