import { describe, expect, it } from 'vitest';
import { postingsPerVariant } from './search-query.js';

const variants = (words: string[]) => words.map((word, at) => ({ id: at + 1, word, df: 100 - at }));
/** What a suggestion asks for: 40 deep, over mixes, members and tracks. */
const SUGGESTION = { depth: 40, kinds: 3 };

describe('postings read per variant (docs/search.md#how-it-finds)', () => {
  it('a short start read for each of the many words it starts costs about what is shown, not the least per word', () => {
    const started = variants(Array.from({ length: 24 }, (_, at) => `ka${'lomi'.slice(0, 1 + (at % 4))}${at}`));
    const walks = started.length * SUGGESTION.kinds;
    const limits = postingsPerVariant(started, 'ka', walks, SUGGESTION.depth);
    expect(limits.every((limit) => limit >= 1)).toBe(true);
    // Twice the depth in all, give or take one per walk for rounding (8 per word would be 576).
    expect(limits.reduce((sum, limit) => sum + limit, 0) * SUGGESTION.kinds).toBeLessThanOrEqual(2 * SUGGESTION.depth + walks);
  });

  it('the typed word itself and the words within its typo budget are still read at least 8 deep; the words it starts, their share', () => {
    // "velvets" is within the budget, but matches better as a word "velvet" starts.
    const probe = variants(['velvet', 'velvets', 'vervet', 'velveteen']);
    const walks = probe.length * SUGGESTION.kinds;
    expect(postingsPerVariant(probe, 'velvet', walks, SUGGESTION.depth)).toEqual([8, 7, 8, 7]);
  });

  it('only the last typed word is being typed: an earlier word’s variants are all read at least 8 deep', () => {
    const probe = variants(['kalomi', 'kalu']);
    expect(postingsPerVariant(probe, null, 6, SUGGESTION.depth)).toEqual([14, 14]);
  });

  it('with few variants each reads its share of twice the depth', () => {
    expect(postingsPerVariant(variants(['kalomi', 'kalomira']), 'kalo', 6, SUGGESTION.depth)).toEqual([14, 14]);
  });
});
