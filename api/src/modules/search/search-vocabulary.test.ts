import { describe, expect, it } from 'vitest';
import { SearchVocabulary, VocabularyIndex, type VocabularyWord } from './search-vocabulary.js';

const index = (words: string[], df = 1) => {
  const vocabulary = new VocabularyIndex();
  vocabulary.add(words.map((word, at) => ({ id: at + 1, word, df })));
  return vocabulary;
};
const found = (vocabulary: VocabularyIndex, typed: string[]) =>
  vocabulary.variants(typed).map((list) => list.map((row) => row.word).sort());

describe('the in-memory search vocabulary (docs/search.md#how-it-finds)', () => {
  const vocabulary = index(['midnight', 'midnite', 'velvet', 'velour', 'sessions', 'session', 'lefevre', 'tomi', 'toni', 'nachtwerk']);

  it('finds the words within the typo budget of each typed word (a swap counts one), none past it', () => {
    expect(found(vocabulary, ['midnihgt'])).toEqual([['midnight']]);
    expect(found(vocabulary, ['lefevere'])).toEqual([['lefevre']]);
    expect(found(vocabulary, ['nahctwrek'])).toEqual([['nachtwerk']]);
    // No typo in a word under 5 letters.
    expect(found(vocabulary, ['tomi', 'xyz'])).toEqual([['tomi'], []]);
    expect(found(vocabulary, ['sessions'])).toEqual([['session', 'sessions']]);
  });

  it('the last typed word also stands for the commonest words it starts, from two letters', () => {
    expect(found(vocabulary, ['midnight', 'vel'])).toEqual([['midnight'], ['velour', 'velvet']]);
    expect(found(vocabulary, ['vel', 'midnight'])).toEqual([[], ['midnight']]);
    expect(found(vocabulary, ['v'])).toEqual([[]]);
    const many = index(Array.from({ length: 50 }, (_, at) => `ka${String.fromCharCode(97 + (at % 26))}${at}`));
    many.add([{ id: 51, word: 'kazoo', df: 1000 }]);
    const starts = many.variants(['ka'])[0] ?? [];
    expect(starts).toHaveLength(30);
    expect(starts.map((row) => row.word)).toContain('kazoo');
  });

  it('words added later are found at once, one by one or many at a time, and counts follow', () => {
    const growing = index(['velvet']);
    growing.add([{ id: 2, word: 'orchard', df: 1 }]);
    expect(found(growing, ['orchrad'])).toEqual([['orchard']]);
    expect(found(growing, ['orc'])).toEqual([['orchard']]);
    // Past the merge thresholds: the new words are moved into the sorted arrays.
    growing.add(Array.from({ length: 5000 }, (_, at) => ({ id: 100 + at, word: `tapes${at}`, df: 1 })));
    const [orchard, tapes] = found(growing, ['orchrad', 'tapes4999']);
    expect(orchard).toEqual(['orchard']);
    expect(tapes).toContain('tapes4999');
    growing.add([{ id: 2, word: 'orchard', df: 7 }]);
    expect(growing.variants(['orchard'])[0]).toEqual([{ id: 2, word: 'orchard', df: 7 }]);
    expect(growing.size).toBe(5002);
  });
});

describe('keeping the vocabulary fresh', () => {
  /** A search_word table the vocabulary reads from, with the statements it was asked. */
  const table = (rows: VocabularyWord[]) => {
    const asked: number[] = [];
    const read = async <T extends object>(_sql: string, params: unknown[]): Promise<T[]> => {
      const [after, limit] = params as [number, number];
      asked.push(after);
      return rows.filter((row) => row.id > after).slice(0, limit) as unknown as T[];
    };
    return { rows, asked, read };
  };

  it('is loaded on first use, then reads only what was added since', async () => {
    const words = table([{ id: 1, word: 'velvet', df: 1 }]);
    const vocabulary = new SearchVocabulary(words.read);
    await vocabulary.refresh();
    expect(words.asked).toEqual([]);
    expect(found(await vocabulary.ready(), ['velvet'])).toEqual([['velvet']]);
    words.rows.push({ id: 5, word: 'orchard', df: 1 });
    await vocabulary.refresh();
    expect(words.asked).toEqual([0, 1]);
    expect(found(await vocabulary.ready(), ['orchard'])).toEqual([['orchard']]);
  });

  it('a notification reads from the first id it names: a lower id may commit after a higher one', async () => {
    const words = table([
      { id: 1, word: 'velvet', df: 1 },
      { id: 5, word: 'orchard', df: 1 },
    ]);
    const vocabulary = new SearchVocabulary(words.read);
    await vocabulary.ready();
    words.rows.push({ id: 3, word: 'tapes', df: 1 });
    await vocabulary.refresh(3);
    expect(words.asked.at(-1)).toBe(2);
    expect(found(await vocabulary.ready(), ['tapes'])).toEqual([['tapes']]);
  });
});
