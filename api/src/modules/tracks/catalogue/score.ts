/**
 * Ranking a typed row's candidates (pure). Each typed word is paired with at most one word of the candidate (exact
 * first, then within the typo budget), in any order and either field, so swapped words and swapped artist and title
 * fields still match. The score rewards covering the candidate's title and artist, punishes typed words that match
 * nothing, and compares versions: no typed version prefers the original; a typed remixer or "extended" prefers that
 * version. Popularity only breaks near ties.
 */
import { GENERIC_VERSION, type TrackText, VERSION_KINDS } from './normalise.js';
import { typoBudget, typoDistance } from './typos.js';

/** Short common words count for less than the rest when they are missing or extra. */
const LIGHT_WORDS = new Set([
  'the',
  'a',
  'an',
  'of',
  'in',
  'on',
  'to',
  'my',
  'me',
  'you',
  'i',
  'is',
  'it',
  'de',
  'la',
  'le',
  'el',
  'dj',
  'mc',
]);

export const WEIGHTS = {
  title: 3,
  artist: 2,
  others: 0.3,
  /** Per typed word that matches nothing. */
  unmatched: 0.45,
  /** Per typed featured name that matches nothing (people add or drop "feat." credits). */
  unmatchedOther: 0.1,
  /** Per word of the candidate's version the row did not type (a remix when the row names none). */
  versionMissing: 0.35,
  /** Per version kind the row typed ("extended") that the candidate is not. */
  versionUnwanted: 0.3,
  /** What a word one typo past its budget counts for. */
  beyondBudget: 0.4,
  /** Per typo, on top of the word counting for less. */
  typo: 0.2,
  /** Per word found in the other field (artist typed as title): only tells otherwise equal candidates apart. */
  swapped: 0.02,
  /** Most that popularity adds: less than any real difference. */
  popularity: 0.02,
} as const;

type Pool = 'title' | 'artist' | 'others' | 'version';
type Origin = 'title' | 'artist' | 'others' | 'version';

interface Unit {
  word: string;
  weight: number;
}
interface CandidateUnit extends Unit {
  pool: Pool;
}
interface QueryUnit extends Unit {
  origin: Origin;
}

const weightOf = (word: string) => (LIGHT_WORDS.has(word) || word.length === 1 ? 0.4 : 1);

/**
 * How well a typed word matches a catalogue word: 1 equal, less per typo within the budget; one typo past the budget
 * (a typo in a short word, a second one in a middle-sized word) still counts a little, since candidates were already
 * found through the row's other words; 0 otherwise.
 */
export function wordMatch(typed: string, word: string): number {
  if (typed === word) return 1;
  const budget = typoBudget(Math.max(typed.length, word.length));
  const distance = typoDistance(typed, word, budget + 1);
  if (distance <= budget) return 1 - WEIGHTS.typo * distance;
  return distance === budget + 1 && Math.min(typed.length, word.length) >= 3 ? WEIGHTS.beyondBudget : 0;
}

const sameField = (origin: Origin, pool: Pool) =>
  origin === pool ||
  (origin === 'artist' && pool === 'others') ||
  (origin === 'others' && pool === 'artist') ||
  (origin === 'title' && pool === 'version') ||
  (origin === 'version' && pool === 'title');

function queryUnits(query: TrackText): QueryUnit[] {
  const units: QueryUnit[] = [];
  const add = (list: string[], origin: Origin) => {
    for (const word of list) if (!GENERIC_VERSION.has(word)) units.push({ word, weight: weightOf(word), origin });
  };
  add(query.title, 'title');
  add(query.artist, 'artist');
  add(query.others, 'others');
  add(query.version, 'version');
  return units;
}

function candidateUnits(candidate: TrackText): CandidateUnit[] {
  return [
    ...candidate.title.map((word) => ({ word, weight: weightOf(word), pool: 'title' as const })),
    ...candidate.artist.map((word) => ({ word, weight: weightOf(word), pool: 'artist' as const })),
    ...candidate.others.map((word) => ({ word, weight: weightOf(word), pool: 'others' as const })),
    ...candidate.version.map((word) => ({ word, weight: 1, pool: 'version' as const })),
  ];
}

/** The score of one candidate for one typed row (higher is better; about 5 for a perfect match). */
export function scoreCandidate(query: TrackText, candidate: TrackText, match: (typed: string, word: string) => number = wordMatch): number {
  const typed = queryUnits(query);
  const words = candidateUnits(candidate);
  const pairs: { q: number; c: number; quality: number; same: boolean }[] = [];
  typed.forEach((unit, q) => {
    words.forEach((word, c) => {
      const quality = match(unit.word, word.word);
      if (quality > 0) pairs.push({ q, c, quality, same: sameField(unit.origin, word.pool) });
    });
  });
  // Best pairs first; among equals the one in the same field, then the earlier words (stable).
  pairs.sort((a, b) => b.quality - a.quality || Number(b.same) - Number(a.same));
  const typedTaken = new Array<number>(typed.length).fill(0);
  const wordTaken = new Array<number>(words.length).fill(0);
  let swapped = 0;
  for (const pair of pairs) {
    if (typedTaken[pair.q] || wordTaken[pair.c]) continue;
    typedTaken[pair.q] = pair.quality;
    wordTaken[pair.c] = pair.quality;
    if (!pair.same) swapped += 1;
  }
  const coverage = (pool: Pool) => {
    let total = 0;
    let matched = 0;
    words.forEach((word, index) => {
      if (word.pool !== pool) return;
      total += word.weight;
      matched += word.weight * (wordTaken[index] ?? 0);
    });
    return total === 0 ? null : matched / total;
  };
  let score =
    WEIGHTS.title * (coverage('title') ?? 1) + WEIGHTS.artist * (coverage('artist') ?? 1) + WEIGHTS.others * (coverage('others') ?? 0);
  // Version: every word of the candidate's version the row did not type counts against it.
  words.forEach((word, index) => {
    if (word.pool === 'version' && !wordTaken[index]) score -= WEIGHTS.versionMissing;
  });
  // Typed words that matched nothing: version kinds ask for a version the candidate is not; others are noise.
  typed.forEach((unit, index) => {
    if (typedTaken[index]) return;
    if (VERSION_KINDS.has(unit.word)) score -= WEIGHTS.versionUnwanted;
    else if (unit.origin === 'others') score -= WEIGHTS.unmatchedOther * unit.weight;
    else score -= WEIGHTS.unmatched * unit.weight;
  });
  return score - WEIGHTS.swapped * swapped;
}

export interface Scored<T> {
  item: T;
  score: number;
}

/**
 * The best `limit` candidates, best first. Popularity adds at most `WEIGHTS.popularity` (scaled to the most popular
 * candidate), so it only orders candidates whose scores are nearly equal.
 */
export function rankCandidates<T>(
  query: TrackText,
  candidates: readonly { item: T; text: TrackText; popularity: number }[],
  limit = 5,
  minScore = 0,
): Scored<T>[] {
  const maxPopularity = Math.max(1, ...candidates.map((candidate) => candidate.popularity));
  // Versions of one track share their words: each pair of words is compared once.
  const memo = new Map<string, number>();
  const match = (typed: string, word: string) => {
    const key = `${typed}\u0000${word}`;
    let quality = memo.get(key);
    if (quality === undefined) {
      quality = wordMatch(typed, word);
      memo.set(key, quality);
    }
    return quality;
  };
  return candidates
    .map((candidate) => ({
      item: candidate.item,
      score:
        scoreCandidate(query, candidate.text, match) +
        (WEIGHTS.popularity * Math.log1p(Math.max(0, candidate.popularity))) / Math.log1p(maxPopularity),
    }))
    .filter((scored) => scored.score >= minScore)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
}
