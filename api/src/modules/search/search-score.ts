/**
 * Ranking search documents (pure; docs/search.md#ranking). Each typed word is matched with its best word of the
 * document, in any field and any order: equal counts 1, within the catalogue's typo budget a little less per typo,
 * the last typed word as the start of a word 0.9 (typing), one typo past the budget in a word of 3 letters or more
 * 0.4. Text relevance decides; a typed exact title adds more than any text difference; the week's listens and recency
 * only order near equals. A title that starts with what was typed counts half as much as an exact one.
 */
import { wordMatch } from '../tracks/index.js';
import { type DocBody, FIELD_WEIGHT } from './search-text.js';

/** Short common words count for less ("the", "dj"). */
const LIGHT = new Set(['the', 'a', 'an', 'of', 'in', 'on', 'to', 'my', 'me', 'i', 'is', 'it', 'de', 'la', 'le', 'el', 'dj', 'mc', 'and']);
export const PREFIX_QUALITY = 0.9;
/** The shortest typed start that counts as typing a longer word. */
export const MIN_PREFIX = 2;

export const RANK_WEIGHTS = { text: 3, coverage: 0.5, exact: 2.5, listens: 0.15, recency: 0.1 } as const;
/**
 * How much of coverage is the title's: a title holding just the typed words goes before a longer one with the same
 * words, whatever the length of their artists' or DJs' names.
 */
const TITLE_SHARE = 0.7;
/** What a title typed whole but misspelt counts, of an exact title's bonus. */
const MISSPELT_TITLE = 0.8;
/** Days over which a document's newness fades to a third. */
const RECENCY_DAYS = 60;

export interface TypedQuery {
  words: string[];
  /** The typed words joined: equal to a document's exact-title key when the title was typed exactly. */
  key: string;
}

export interface Candidate {
  body: DocBody;
  nameKey: string;
  /** A mix's listens of the last seven days (counted up to RECENT_LISTENS_COUNTED). */
  recentListens: number;
  at: Date | null;
}

/** How well one typed word matches one document word (0 none). The last typed word may be the start of a word. */
export function typedWordMatch(typed: string, word: string, isLast: boolean): number {
  const quality = wordMatch(typed, word);
  if (quality >= PREFIX_QUALITY || !isLast || typed.length < MIN_PREFIX || word.length <= typed.length) return quality;
  return word.startsWith(typed) ? PREFIX_QUALITY : quality;
}

/** Remembers each typed word's match with each document word for one query (candidates share most of their words). */
export function matcher(): (typed: string, word: string, isLast: boolean) => number {
  const memo = new Map<string, number>();
  return (typed, word, isLast) => {
    const key = `${isLast ? 1 : 0}${typed}\u0000${word}`;
    let quality = memo.get(key);
    if (quality === undefined) {
      quality = typedWordMatch(typed, word, isLast);
      memo.set(key, quality);
    }
    return quality;
  };
}

/** Text relevance from 0 to 1 (null: too little matched to show), and how much of the document's title, then of its names, was typed. */
export function textMatch(
  query: TypedQuery,
  body: DocBody,
  match: (typed: string, word: string, isLast: boolean) => number = typedWordMatch,
): { relevance: number; coverage: number; wholeTitle: boolean } | null {
  const fields = (['t', 'n', 'o'] as const).flatMap((field) => body[field].map((word) => ({ word, field })));
  const taken = new Set<number>();
  let total = 0;
  let matched = 0;
  let missing = 0;
  query.words.forEach((typed, index) => {
    const weight = LIGHT.has(typed) ? 0.4 : 1;
    total += weight;
    let best = 0;
    let bestAt = -1;
    fields.forEach((entry, at) => {
      if (taken.has(at)) return;
      const quality = match(typed, entry.word, index === query.words.length - 1) * FIELD_WEIGHT[entry.field];
      if (quality > best) {
        best = quality;
        bestAt = at;
      }
    });
    if (bestAt >= 0) taken.add(bestAt);
    else if (weight === 1) missing += 1;
    matched += weight * best;
  });
  // Every word must match, but one of three or more typed words may be noise.
  if (total === 0 || missing > (query.words.length >= 3 ? 1 : 0)) return null;
  const relevance = matched / total;
  if (relevance < 0.5) return null;
  const typedShare = (field: keyof DocBody) => {
    const all = body[field].length;
    return all === 0 ? 0 : [...taken].filter((at) => fields[at]?.field === field).length / all;
  };
  const titleShare = typedShare('t');
  // The title typed whole, each word within its typo budget, and nothing else typed.
  const wholeTitle = titleShare === 1 && query.words.length === body.t.length && missing === 0;
  return { relevance, coverage: TITLE_SHARE * titleShare + (1 - TITLE_SHARE) * typedShare('n'), wholeTitle };
}

/**
 * The score of a document for a query; null when it does not match. `maxRecentListens` scales the week's listens among
 * the candidates.
 */
export function scoreDoc(
  query: TypedQuery,
  candidate: Candidate,
  maxRecentListens: number,
  now: number,
  match: (typed: string, word: string, isLast: boolean) => number = typedWordMatch,
): number | null {
  const text = textMatch(query, candidate.body, match);
  if (!text) return null;
  // An exact title counts fully, a misspelt one nearly so; a title that starts with what was typed (typing it) counts half.
  const exact =
    candidate.nameKey === query.key || candidate.body.n.join(' ') === query.key
      ? 1
      : text.wholeTitle
        ? MISSPELT_TITLE
        : candidate.nameKey.startsWith(`${query.key}`) && query.key.length >= MIN_PREFIX
          ? 0.5
          : 0;
  // Listens and newness are a mix's; members and tracks get the middle of both, so neither kind gains from them.
  const isMix = candidate.at !== null;
  const listens = !isMix ? 0.5 : maxRecentListens > 0 ? Math.log1p(candidate.recentListens) / Math.log1p(maxRecentListens) : 0;
  const ageDays = candidate.at ? Math.max(0, (now - candidate.at.getTime()) / 86_400_000) : 0;
  const recency = isMix ? Math.exp(-ageDays / RECENCY_DAYS) : 0.5;
  return (
    RANK_WEIGHTS.text * text.relevance +
    RANK_WEIGHTS.coverage * text.coverage +
    RANK_WEIGHTS.exact * exact +
    RANK_WEIGHTS.listens * listens +
    RANK_WEIGHTS.recency * recency
  );
}
