import { describe, expect, test } from 'vitest';
import { catalogueText, typedText } from './normalise.js';
import { rankCandidates, scoreCandidate, wordMatch } from './score.js';

const catalogue = [
  { id: 'original', title: 'Midnight Drive', creators: ['Kora Vale'] },
  { id: 'original-mix', title: 'Golden Tide (Original Mix)', creators: ['Kora Vale'] },
  { id: 'extended', title: 'Midnight Drive (Extended Mix)', creators: ['Kora Vale'] },
  { id: 'juno', title: 'Midnight Drive (Juno Reyes Remix)', creators: ['Kora Vale'] },
  { id: 'osei', title: 'Midnight Drive (Dani Osei Remix)', creators: ['Kora Vale'] },
  { id: 'other-artist', title: 'Midnight Drive', creators: ['Static Bloom'] },
  { id: 'longer', title: 'Midnight Drive Home', creators: ['Kora Vale'] },
  { id: 'feat', title: 'Neon Harbour', creators: ['Zoë Lefèvre', 'Ama Boateng'] },
].map((track) => ({
  item: track.id,
  text: catalogueText(
    track.title,
    track.creators.map((name) => ({ name })),
  ),
  popularity: 0,
}));

const best = (artist: string, title: string) => rankCandidates(typedText(artist, title), catalogue, 5)[0]?.item;

describe('score', () => {
  test('word matches within the budget', () => {
    expect(wordMatch('drive', 'drive')).toBe(1);
    expect(wordMatch('dirve', 'drive')).toBeCloseTo(0.8);
    expect(wordMatch('mss', 'moss')).toBe(0.4);
    expect(wordMatch('ms', 'moss')).toBe(0);
  });

  test('the plain title is the original', () => {
    expect(best('Kora Vale', 'Midnight Drive')).toBe('original');
    expect(best('kora vale', 'midnight drive (original mix)')).toBe('original');
    expect(best('Kora Vale', 'Golden Tide')).toBe('original-mix');
  });

  test('typed versions choose their version', () => {
    expect(best('Kora Vale', 'Midnight Drive - Extended Edit')).toBe('extended');
    expect(best('Kora Vale', 'Midnight Drive (Juno Reyes Remix)')).toBe('juno');
    expect(best('Kora Vale', 'midnight drive juno reyes rmx')).toBe('juno');
    expect(best('Kora Vale', 'Midnight Drive (Dani Osei Remix)')).toBe('osei');
  });

  test('typos, swaps, accents and feat. credits', () => {
    expect(best('Kroa Vael', 'Midnigth Dirve')).toBe('original');
    expect(best('Midnight Drive', 'Kora Vale')).toBe('original');
    expect(best('Vale Kora', 'Drive Midnight')).toBe('original');
    expect(best('Static Blom', 'midnight drive')).toBe('other-artist');
    expect(best('Kora Vale', 'Midnight Drive Home')).toBe('longer');
    expect(best('Zoe Lefevre', 'Neon Harbor')).toBe('feat');
    expect(best('Zoe Lefevre feat. Ama Boateng', 'Neon Harbour')).toBe('feat');
    expect(best('Zoë Lefèvre', 'Neon Harbour (feat. Someone Else)')).toBe('feat');
  });

  test('swapped fields score a little below the same words in place', () => {
    const original = catalogue[0]?.text;
    if (!original) throw new Error('no catalogue');
    const inPlace = scoreCandidate(typedText('Kora Vale', 'Midnight Drive'), original);
    const swapped = scoreCandidate(typedText('Midnight Drive', 'Kora Vale'), original);
    expect(swapped).toBeLessThan(inPlace);
    expect(inPlace - swapped).toBeLessThan(0.1);
  });

  test('popularity breaks near ties only', () => {
    const twins = [
      { item: 'quiet', text: catalogueText('Echo', [{ name: 'Moss' }]), popularity: 0 },
      { item: 'loved', text: catalogueText('Echo', [{ name: 'Moss' }]), popularity: 500 },
      { item: 'wrong', text: catalogueText('Echo Chamber', [{ name: 'Moss' }]), popularity: 100_000 },
    ];
    expect(rankCandidates(typedText('Moss', 'Echo'), twins).map((scored) => scored.item)).toEqual(['loved', 'quiet', 'wrong']);
  });
});
