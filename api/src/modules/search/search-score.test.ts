import { describe, expect, it } from 'vitest';
import { scoreDoc, textMatch, typedWordMatch } from './search-score.js';
import { memberBody, mixBody, nameKey, trackBody } from './search-text.js';

const query = (text: string) => {
  const words = nameKey(text).split(' ');
  return { words, key: words.join(' ') };
};
const NOW = Date.parse('2026-12-22T00:00:00Z');
const score = (text: string, body: ReturnType<typeof mixBody>, title: string) =>
  scoreDoc(query(text), { body, nameKey: nameKey(title), recentListens: 0, at: null }, 0, NOW);

describe('search ranking (docs/search.md#ranking)', () => {
  it('the last typed word may be the start of a word; earlier ones may not', () => {
    expect(typedWordMatch('vel', 'velvet', true)).toBe(0.9);
    expect(typedWordMatch('vel', 'velvet', false)).toBe(0);
    expect(typedWordMatch('v', 'velvet', true)).toBe(0);
  });

  it('forgives case, accents, word order and typos by word length', () => {
    const body = memberBody({ displayName: 'Zoë Lefèvre', userName: 'zoe_l' });
    expect(textMatch(query('LEFEVRE zoe'), body)?.relevance).toBeGreaterThan(0.9);
    expect(textMatch(query('zoe lefevere'), body)).not.toBeNull();
    // "zeo" is under 5 letters: no typo budget, one past it counts a little.
    expect(textMatch(query('zeo lefevre'), body)?.relevance ?? 0).toBeLessThan(0.8);
  });

  it('every typed word must match, except one noise word among three or more', () => {
    const body = mixBody({ title: 'Midnight Velvet Sessions', genre: 'deep_house', displayName: 'Kora Vale', userName: 'kora' });
    expect(textMatch(query('midnight qqqqqq'), body)).toBeNull();
    expect(textMatch(query('midnight velvet qqqqqq'), body)).not.toBeNull();
  });

  it('an exact title wins over a longer one; a title started counts half', () => {
    const short = mixBody({ title: 'Night Drive', genre: 'techno', displayName: 'A', userName: 'a' });
    const long = mixBody({ title: 'Night Drive Extended Journey', genre: 'techno', displayName: 'A', userName: 'a' });
    expect(score('night drive', short, 'Night Drive') ?? 0).toBeGreaterThan(
      score('night drive', long, 'Night Drive Extended Journey') ?? 0,
    );
  });

  it('a title holding just the typed words, misspelt, goes before a longer title with them, whoever made each', () => {
    const exact = trackBody({ title: 'Silent River (Original Mix)', creators: [{ name: 'The Midnight Drift' }], label: null });
    const longer = trackBody({ title: 'Broken Silent River (Original Mix)', creators: [{ name: 'DJ Omar' }], label: null });
    const typed = 'silent river (origial mix)';
    expect(score(typed, exact, 'Silent River (Original Mix)') ?? 0).toBeGreaterThan(
      score(typed, longer, 'Broken Silent River (Original Mix)') ?? 0,
    );
  });

  it('a title typed whole but misspelt goes before a much played mix whose DJ holds one of its words', () => {
    const titled = mixBody({ title: 'Velvet Orbit Mix', genre: 'hip_hop', displayName: 'Ana Tanaka', userName: 'ana_tanaka_32' });
    const named = mixBody({ title: 'Lunar Orbit Mix', genre: 'house', displayName: 'Velvet Static', userName: 'velvet_static_38' });
    const q = query('vlvet orbit mix');
    const asTitled = scoreDoc(
      q,
      { body: titled, nameKey: 'velvet orbit mix', recentListens: 0, at: new Date(NOW - 30 * 86_400_000) },
      50,
      NOW,
    );
    expect(asTitled ?? 0).toBeGreaterThan(
      scoreDoc(q, { body: named, nameKey: 'lunar orbit mix', recentListens: 50, at: new Date(NOW) }, 50, NOW) ?? 0,
    );
  });

  it('a typed name, misspelt, finds the member before a new, much played mix of theirs', () => {
    const member = memberBody({ displayName: 'Kofi Dubois', userName: 'kofi_dubois_3' });
    const mix = mixBody({ title: 'Hidden Tide Session', genre: 'house', displayName: 'Kofi Dubois', userName: 'kofi_dubois_3' });
    const q = query('kofi duboise');
    const asMember = scoreDoc(q, { body: member, nameKey: 'kofi dubois', recentListens: 0, at: null }, 100, NOW) ?? 0;
    expect(asMember).toBeGreaterThan(
      scoreDoc(q, { body: mix, nameKey: 'hidden tide session', recentListens: 100, at: new Date(NOW) }, 100, NOW) ?? 0,
    );
  });

  it('a typed name finds the member before the tracks that credit them', () => {
    const member = memberBody({ displayName: 'Cassius Moon', userName: 'cassius_moon_12' });
    const track = trackBody({ title: 'Hazy Meadow', creators: [{ name: 'Cassius Moon' }], label: null });
    expect(score('cassius mo', member, 'Cassius Moon') ?? 0).toBeGreaterThan(score('cassius mo', track, 'Hazy Meadow') ?? 0);
  });
});
