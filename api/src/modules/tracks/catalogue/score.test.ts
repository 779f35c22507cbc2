import { describe, expect, test } from 'vitest';
import { catalogueText, type TrackText, typedText } from './normalise.js';
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

/** A row or candidate given word by word, as the normaliser would give it. */
const text = (title: string[], artist: string[] = [], others: string[] = [], version: string[] = []): TrackText => ({
  title,
  artist,
  others,
  version,
});

describe('score, term by term', () => {
  test('a word match per typo, and one typo past the budget', () => {
    expect(wordMatch('harbor', 'harbour')).toBeCloseTo(0.8);
    // The budget is the longer word's: 'driv' alone would allow no typo.
    expect(wordMatch('driv', 'drive')).toBeCloseTo(0.8);
    expect(wordMatch('crsytallien', 'crystalline')).toBeCloseTo(0.6);
    // Two typos in a word of five to eight letters: one past its budget.
    expect(wordMatch('drvei', 'drive')).toBe(0.4);
    // Three typos there: nothing.
    expect(wordMatch('dxxxe', 'drive')).toBe(0);
    // One typo past the budget counts only when both words have three letters or more.
    expect(wordMatch('mss', 'moss')).toBe(0.4);
    expect(wordMatch('mo', 'moa')).toBe(0);
  });

  test('a perfect match is title 3 and artist 2; a missing field counts as covered, missing others as nothing', () => {
    expect(scoreCandidate(text(['midnight', 'drive'], ['kora', 'vale']), text(['midnight', 'drive'], ['kora', 'vale']))).toBeCloseTo(5);
    expect(scoreCandidate(text(['midnight', 'drive']), text(['midnight', 'drive']))).toBeCloseTo(5);
    expect(scoreCandidate(text(['midnight']), text(['midnight', 'drive']))).toBeCloseTo(3.5);
    expect(scoreCandidate(text(['midnight'], ['ama']), text(['midnight'], [], ['ama', 'boateng']))).toBeCloseTo(5.15);
  });

  test('light words and one-letter words weigh 0.4 of the others', () => {
    for (const light of [
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
    ]) {
      // Covered: the light word counts 0.4 of the title; typed and unmatched: 0.45 x 0.4 off.
      expect(scoreCandidate(text(['drive']), text([light, 'drive'])), light).toBeCloseTo(2 + 3 / 1.4);
      expect(scoreCandidate(text([light, 'drive']), text(['drive'])), light).toBeCloseTo(5 - 0.18);
    }
    expect(scoreCandidate(text(['drive']), text(['x', 'drive']))).toBeCloseTo(2 + 3 / 1.4);
    expect(scoreCandidate(text(['drive']), text(['home', 'drive']))).toBeCloseTo(3.5);
  });

  test('what typed words that match nothing cost', () => {
    const candidate = text(['midnight', 'drive'], ['kora']);
    expect(scoreCandidate(text(['midnight', 'drive', 'home'], ['kora']), candidate)).toBeCloseTo(5 - 0.45);
    expect(scoreCandidate(text(['midnight', 'drive'], ['kora'], ['someone']), candidate)).toBeCloseTo(5 - 0.1);
    expect(scoreCandidate(text(['midnight', 'drive'], ['kora'], ['the']), candidate)).toBeCloseTo(5 - 0.04);
    // A version kind the candidate is not, typed in the version or in the title.
    expect(scoreCandidate(text(['midnight', 'drive'], ['kora'], [], ['extended']), candidate)).toBeCloseTo(5 - 0.3);
    expect(scoreCandidate(text(['midnight', 'drive', 'remix'], ['kora']), candidate)).toBeCloseTo(5 - 0.3);
    // Generic version words are not typed words at all.
    expect(scoreCandidate(text(['midnight', 'drive', 'original'], ['kora'], [], ['mix']), candidate)).toBeCloseTo(5);
  });

  test("each word of the candidate's version the row did not type costs 0.35", () => {
    const remix = text(['midnight', 'drive'], ['kora'], [], ['juno', 'remix']);
    expect(scoreCandidate(text(['midnight', 'drive'], ['kora']), remix)).toBeCloseTo(5 - 0.7);
    expect(scoreCandidate(text(['midnight', 'drive'], ['kora'], [], ['juno']), remix)).toBeCloseTo(5 - 0.35);
    expect(scoreCandidate(text(['midnight', 'drive'], ['kora'], [], ['juno', 'remix']), remix)).toBeCloseTo(5);
  });

  test('a word found in a neighbouring field is in place; in another field it costs 0.02', () => {
    // Artist and featured artists are one field for this; so are title and version.
    expect(scoreCandidate(text(['drive'], ['ama']), text(['drive'], [], ['ama']))).toBeCloseTo(5.3);
    expect(scoreCandidate(text(['drive'], [], ['ama']), text(['drive'], ['ama']))).toBeCloseTo(5);
    expect(scoreCandidate(text(['drive', 'juno']), text(['drive'], [], [], ['juno']))).toBeCloseTo(5);
    expect(scoreCandidate(text(['drive'], [], [], ['juno']), text(['drive', 'juno']))).toBeCloseTo(5);
    // Artist typed as title, version as artist, artist as version, others as title.
    expect(scoreCandidate(text(['kora']), text([], ['kora']))).toBeCloseTo(5 - 0.02);
    expect(scoreCandidate(text([], [], [], ['kora']), text([], ['kora']))).toBeCloseTo(5 - 0.02);
    expect(scoreCandidate(text([], ['juno']), text([], [], [], ['juno']))).toBeCloseTo(5 - 0.02);
    expect(scoreCandidate(text([], [], ['drive']), text(['drive']))).toBeCloseTo(5 - 0.02);
    expect(scoreCandidate(text(['ama']), text([], [], ['ama']))).toBeCloseTo(5.3 - 0.02);
    // A typed word matching nothing is no swap.
    expect(scoreCandidate(text(['zzz']), text([], ['kora']))).toBeCloseTo(3 - 0.45);
  });

  test('each typed word takes one word, the best match first, then the one in its own field', () => {
    expect(scoreCandidate(text(['drive']), text(['dirve', 'drive']))).toBeCloseTo(3.5);
    expect(scoreCandidate(text(['drive']), text(['drive', 'drive']))).toBeCloseTo(3.5);
    expect(scoreCandidate(text(['drive', 'drive']), text(['drive']))).toBeCloseTo(5 - 0.45);
    expect(scoreCandidate(text(['dirve']), text(['drive']))).toBeCloseTo(2 + 3 * 0.8);
    // The typed artist word could take the title's or the artist's 'drive': it takes its own field's.
    expect(scoreCandidate(text([], ['drive']), text(['drive'], ['drive']))).toBeCloseTo(2);
    expect(scoreCandidate(text(['drive']), text(['drive'], ['drive']))).toBeCloseTo(3);
  });

  test('ranking: best first, at most the limit, none under the least score, popularity a bonus of at most 0.02', () => {
    const candidates = [
      { item: 'half', text: text(['midnight', 'drive']), popularity: 0 },
      { item: 'full', text: text(['drive']), popularity: 0 },
      { item: 'none', text: text(['harbour']), popularity: 0 },
    ];
    const ranked = rankCandidates(text(['drive']), candidates);
    expect(ranked.map((scored) => scored.item)).toEqual(['full', 'half', 'none']);
    expect(ranked.map((scored) => scored.score)).toEqual([5, 3.5, 1.55].map((score) => expect.closeTo(score)));
    expect(rankCandidates(text(['drive']), candidates, 1).map((scored) => scored.item)).toEqual(['full']);
    expect(rankCandidates(text(['drive']), candidates, 5, 3.5).map((scored) => scored.item)).toEqual(['full', 'half']);
    expect(rankCandidates(text(['drive']), candidates, 5, 3.6).map((scored) => scored.item)).toEqual(['full']);
    const popular = rankCandidates(text(['drive']), [
      { item: 'most', text: text(['drive']), popularity: 100 },
      { item: 'some', text: text(['drive']), popularity: 9 },
      { item: 'negative', text: text(['drive']), popularity: -5 },
    ]);
    expect(popular.map((scored) => [scored.item, scored.score])).toEqual([
      ['most', expect.closeTo(5.02)],
      ['some', expect.closeTo(5 + (0.02 * Math.log1p(9)) / Math.log1p(100))],
      ['negative', expect.closeTo(5)],
    ]);
    // Words remembered across candidates are remembered per pair.
    expect(
      rankCandidates(text(['drive', 'home']), [
        { item: 'a', text: text(['drive', 'away']), popularity: 0 },
        { item: 'b', text: text(['home', 'drive']), popularity: 0 },
      ]).map((scored) => [scored.item, scored.score]),
    ).toEqual([
      ['b', expect.closeTo(5)],
      ['a', expect.closeTo(5 - 1.5 - 0.45)],
    ]);
  });
});
