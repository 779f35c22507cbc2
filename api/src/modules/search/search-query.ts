/**
 * Finding documents (docs/search.md#how-it-finds). The typed words' variants come from the in-memory vocabulary
 * (search-vocabulary.ts: deletion keys within the typo budget, and the words the last typed word starts); then two
 * statements at most: the candidates (the newest postings of the rarest typed words, per kind, with any document whose
 * title starts with what was typed, checked against the mixes' visibility and the filters), and the visible mixes that
 * play the best matching tracks. Ranking is search-score.ts.
 */
import { VISIBLE_MIX_SQL } from '../mixes/index.js';
import { words } from '../tracks/index.js';
import { suspendedSql } from '../users/index.js';
import type { SearchDb } from './search-db.js';
import { type Candidate, MIN_PREFIX, matcher, scoreDoc, type TypedQuery, typedWordMatch } from './search-score.js';
import { type DocBody, KIND, KIND_OF_CODE, type Kind } from './search-text.js';
import type { VocabularyWord as Variant, VocabularyIndex } from './search-vocabulary.js';

/**
 * Typed words that count: a long title typed whole (a version's "Extended Mix" comes after its six or more words) must
 * tell it from its siblings. Only the two rarest look for candidates, so more words cost only the ranking's checks.
 */
const MAX_WORDS = 16;
/** Variants of one typed word that look for documents. */
const PROBE_VARIANTS = 24;
/** A mix found through its tracklist counts this much of the track's score. */
const TRACKLIST_SHARE = 0.8;
/** Postings read per variant and kind at the least (the newest documents holding the word). */
const MIN_PER_VARIANT = 8;
/** Postings walked at most to find documents holding two typed words. */
const SCAN_POSTINGS = 3000;
/**
 * A mix's listens of the last week are counted up to this many (its index, `listen_mix_recent_idx`, is read no further):
 * ranking takes their logarithm, where more than this changes almost nothing.
 */
const RECENT_LISTENS_COUNTED = 1000;
/** Tracks whose mixes are looked for. */
const TRACKLIST_TRACKS = 8;

export interface SearchFilters {
  genre: string | null;
  /** Mixes within this many km of `origin`. */
  withinKm: number | null;
  origin: { latitude: number; longitude: number } | null;
  /** Mixes at least / at most this many seconds long. */
  minSeconds: number | null;
  maxSeconds: number | null;
}

export interface Hit {
  kind: Kind;
  id: string;
  score: number;
  /** For a mix found through its tracklist: the track it plays. */
  viaTrackId: string | null;
}

const filterSql = (filters: SearchFilters) =>
  [
    filters.genre === null ? '' : 'and mix.genre = :genre',
    filters.minSeconds === null ? '' : 'and mix.duration_seconds >= :minSeconds',
    filters.maxSeconds === null ? '' : 'and mix.duration_seconds <= :maxSeconds',
    filters.withinKm === null || filters.origin === null ? '' : 'and earth_distance(mix.geo, geo_earth(:lat, :lng)) <= :withinM',
  ].join(' ');

const filterParams = (filters: SearchFilters): Record<string, unknown> => ({
  ...(filters.genre === null ? {} : { genre: filters.genre }),
  ...(filters.minSeconds === null ? {} : { minSeconds: filters.minSeconds }),
  ...(filters.maxSeconds === null ? {} : { maxSeconds: filters.maxSeconds }),
  ...(filters.withinKm === null || filters.origin === null
    ? {}
    : { lat: filters.origin.latitude, lng: filters.origin.longitude, withinM: filters.withinKm * 1000 }),
});

interface CandidateRow {
  kind: number;
  ref_id: string;
  body: DocBody;
  name_key: string;
  recent_listens: number | string | null;
  at: Date | string | null;
}

/** Ranked hits for the typed text: at most `depth` per kind looked at, best first. */
export async function findHits(
  db: SearchDb,
  vocabulary: VocabularyIndex,
  text: string,
  kinds: readonly Kind[],
  filters: SearchFilters,
  depth: number,
  /** Whether mixes are also found through their tracklists (a results page; suggestions skip it to answer sooner). */
  throughTracklists = true,
): Promise<Hit[]> {
  const given = words(text).slice(0, MAX_WORDS);
  // A last word of one letter after others is a word being started ("kofi d"): it finds and ranks nothing until its
  // second letter, so the words before it answer meanwhile rather than no match at all.
  const typed = given.length > 1 && (given.at(-1)?.length ?? 0) < MIN_PREFIX ? given.slice(0, -1) : given;
  if (typed.length === 0) return [];
  const query: TypedQuery = { words: typed, key: typed.join(' ') };
  const variants = vocabulary.variants(typed);
  // The rarest typed word (fewest documents over its variants) finds the candidates: the newest documents holding it
  // and, when more words were typed, a variant of the next rarest too. A word still being typed finds candidates alone
  // only when no whole word can (its variants are the commonest words it starts, while the ranking checks every
  // candidate's words against it); beside a whole word it is one of the two like any other, so the rarer of them is
  // walked and the commoner checked. Titles starting with what was typed are found besides.
  const last = typed.length - 1;
  const lists = variants.map((list) => [...list].sort((a, b) => b.df - a.df).slice(0, PROBE_VARIANTS));
  const totalDf = (list: Variant[]) => list.reduce((sum, v) => sum + v.df, 0);
  const complete = lists
    .filter((list, index) => list.length > 0 && (index !== last || list.some((v) => v.word === typed[last])))
    .sort((a, b) => totalDf(a) - totalDf(b));
  const partial = lists.filter((list, index) => list.length > 0 && index === last && !complete.includes(list));
  const [probe = [], second = []] = [...complete.slice(0, 1), ...partial, ...complete.slice(1)]
    .slice(0, 2)
    .sort((a, b) => totalDf(a) - totalDf(b));
  const wantsMixes = kinds.includes('mix');
  const searched = [...new Set(wantsMixes && throughTracklists ? [...kinds, 'track' as const] : kinds)].map((kind) => KIND[kind]);
  // The postings read, in all: about twice what is shown, shared by the probe's variants and the kinds; with a second
  // word to check, at most SCAN_POSTINGS walked in all (two common words seldom together would otherwise walk all of one).
  const walks = Math.max(1, probe.length * searched.length);
  const perVariant = Math.max(MIN_PER_VARIANT, Math.ceil((depth * 2) / walks));
  const limits = postingsPerVariant(probe, lists.indexOf(probe) === last ? (typed[last] ?? null) : null, walks, depth);
  const scan = Math.max(perVariant, Math.ceil(SCAN_POSTINGS / walks));
  const rows = await db.query<CandidateRow>(
    `with hits as (
       select p.doc_no from unnest(:probe::int[], :limits::int[]) as w(id, lim) cross join unnest(:kinds::smallint[]) as k(kind)
        cross join lateral (${
          second.length > 0
            ? `select s.doc_no from (select p.doc_no from search_posting p where p.word_id = w.id and p.kind = k.kind
                                       order by p.doc_no desc limit :scan) s
                where (select d.words && :second::int[] from search_doc d where d.doc_no = s.doc_no) limit w.lim`
            : 'select p.doc_no from search_posting p where p.word_id = w.id and p.kind = k.kind order by p.doc_no desc limit w.lim'
        }) p
       union
       (select doc_no from search_doc where name_key ~>=~ :keyStart and name_key ~<~ :keyEnd and kind = any(:kinds::smallint[])
         order by name_key using ~<~ limit :perVariant)
     )
     select d.kind, d.ref_id, d.body, d.name_key, m.recent_listens, m.published_at as at
       from hits h join search_doc d on d.doc_no = h.doc_no
       left join lateral (select mix.published_at, (select count(*) from (select from listen l where l.mix_id = mix.id
                             and l.started_at > now() - interval '7 days' limit ${RECENT_LISTENS_COUNTED}) week) as recent_listens from mix
                           where mix.id = (case when d.kind = ${KIND.mix} then d.ref_id end) and ${VISIBLE_MIX_SQL} ${filterSql(filters)}) m on true
      where (d.kind <> ${KIND.mix} or m.published_at is not null)
        and (d.kind <> ${KIND.member} or not exists (select 1 from app_user su where su.id = d.ref_id and ${suspendedSql('su')}))`,
    {
      probe: probe.map((v) => v.id),
      limits,
      kinds: searched,
      perVariant,
      ...(second.length > 0 ? { second: second.map((v) => v.id), scan } : {}),
      // Titles starting with the typed key: a range in the index's byte order (the last character sorts after all),
      // walked in that order so the limit stops the walk early and an exact title, first in it, is always kept.
      keyStart: query.key,
      keyEnd: `${query.key}\u{10ffff}`,
      ...filterParams(filters),
    },
  );
  const now = Date.now();
  const candidateOf = (row: CandidateRow): Candidate => ({
    body: row.body,
    nameKey: row.name_key,
    recentListens: Number(row.recent_listens ?? 0),
    at: row.at === null ? null : new Date(row.at),
  });
  const maxRecentListens = Math.max(0, ...rows.map((row) => Number(row.recent_listens ?? 0)));
  const scored: Hit[] = [];
  const match = matcher();
  for (const row of rows) {
    const score = scoreDoc(query, candidateOf(row), maxRecentListens, now, match);
    if (score !== null) scored.push({ kind: KIND_OF_CODE[row.kind] as Kind, id: row.ref_id, score, viaTrackId: null });
  }
  scored.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
  if (wantsMixes && throughTracklists) await addTracklistMixes(db, scored, filters);
  const wanted = new Set(kinds);
  return scored.filter((hit) => wanted.has(hit.kind)).sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}

/**
 * Postings read per probe variant and kind: about twice `depth` in all, shared by the `walks` (variants times kinds),
 * and at the least MIN_PER_VARIANT for a word the typed one may be. A word that `lastTyped` (the probe's typed word when
 * it is the last one, null otherwise) only starts gets its share alone: a short start stands for up to PROBE_VARIANTS
 * such words, whose documents all match it alike, and MIN_PER_VARIANT of each read about 500 candidates for a
 * suggestion showing 8, with the same first suggestion as the share gives (README, search at scale 1).
 */
export function postingsPerVariant(probe: readonly Variant[], lastTyped: string | null, walks: number, depth: number): number[] {
  const share = Math.ceil((depth * 2) / walks);
  const onlyStarted = (word: string) =>
    lastTyped !== null && typedWordMatch(lastTyped, word, true) > typedWordMatch(lastTyped, word, false);
  return probe.map((variant) => (onlyStarted(variant.word) ? share : Math.max(MIN_PER_VARIANT, share)));
}

/** Mixes that play the best matching tracks join the hits ("mixes that play Tomi Sato"), or keep their better score. */
async function addTracklistMixes(db: SearchDb, hits: Hit[], filters: SearchFilters): Promise<void> {
  const tracks = hits.filter((hit) => hit.kind === 'track').slice(0, TRACKLIST_TRACKS);
  if (tracks.length === 0) return;
  const rows = await db.query<{ id: string; track_id: string }>(
    `select distinct on (mix.id) mix.id, mt.track_id from mix_track mt join mix on mix.id = mt.mix_id
      where mt.track_id = any(:tracks::uuid[]) and ${VISIBLE_MIX_SQL} ${filterSql(filters)}
      order by mix.id, array_position(:tracks::uuid[], mt.track_id) limit 200`,
    { tracks: tracks.map((hit) => hit.id), ...filterParams(filters) },
  );
  const trackScore = new Map(tracks.map((hit) => [hit.id, hit.score]));
  const mixes = new Map(hits.filter((hit) => hit.kind === 'mix').map((hit) => [hit.id, hit]));
  for (const row of rows) {
    const score = (trackScore.get(row.track_id) ?? 0) * TRACKLIST_SHARE;
    const known = mixes.get(row.id);
    if (known) {
      if (score > known.score) Object.assign(known, { score, viaTrackId: row.track_id });
    } else hits.push({ kind: 'mix', id: row.id, score, viaTrackId: row.track_id });
  }
}
