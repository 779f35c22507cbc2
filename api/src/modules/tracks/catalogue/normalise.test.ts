import { describe, expect, test } from 'vitest';
import { artistWords, catalogueText, fold, indexWords, parseTitle, queryWords, typedText, words } from './normalise.js';

describe('normalise', () => {
  test('folds case and accents, special letters included', () => {
    expect(fold('Zoë Lefèvre ØRESUND Straße Łódź')).toBe('zoe lefevre oresund strasse lodz');
  });

  test('splits at punctuation, joins apostrophes, drops "&" and "and"', () => {
    expect(words("Don't Stop (Rhodes & Rye / Basement-Choir)")).toEqual(['dont', 'stop', 'rhodes', 'rye', 'basement', 'choir']);
    expect(words('Rhodes and Rye')).toEqual(words('Rhodes & Rye'));
  });

  test('cuts hostile long words', () => {
    expect(words('x'.repeat(10_000))[0]).toHaveLength(32);
  });

  test('takes versions and featured artists off titles', () => {
    expect(parseTitle('Midnight Drive (Original Mix)')).toEqual({ base: ['midnight', 'drive'], featured: [], version: [] });
    expect(parseTitle('Midnight Drive - Extended Edit')).toEqual({ base: ['midnight', 'drive'], featured: [], version: ['extended'] });
    expect(parseTitle('Midnight Drive (Extended Mix)').version).toEqual(['extended']);
    expect(parseTitle('Midnight Drive [Juno Reyes Rmx]').version).toEqual(['juno', 'reyes', 'remix']);
    expect(parseTitle('Midnight Drive (feat. Kora Vale) [Dub Mix]')).toEqual({
      base: ['midnight', 'drive'],
      featured: ['kora', 'vale'],
      version: ['dub'],
    });
    expect(parseTitle('Midnight Drive ft. Kora Vale')).toEqual({ base: ['midnight', 'drive'], featured: ['kora', 'vale'], version: [] });
    expect(parseTitle('(I Just) Died In Your Arms').base.sort()).toEqual(['arms', 'died', 'i', 'in', 'just', 'your']);
    expect(parseTitle('Hip-Hop Hooray').base).toEqual(['hip', 'hop', 'hooray']);
  });

  test('artist fields: every name, joiners dropped', () => {
    expect(artistWords('Kora Vale feat. Dani Osei')).toEqual(['kora', 'vale', 'dani', 'osei']);
    expect(artistWords('Kora Vale x Dani Osei vs. Moss')).toEqual(['kora', 'vale', 'dani', 'osei', 'moss']);
  });

  test('catalogue text: first creator is the artist, the rest and feat. names are others', () => {
    const text = catalogueText('Golden Tide (feat. Ama Boateng) [Vera Lind Remix]', [{ name: 'Rhodes & Rye' }, { name: 'Olu Adeyemi' }]);
    expect(text).toEqual({
      title: ['golden', 'tide'],
      artist: ['rhodes', 'rye'],
      others: ['olu', 'adeyemi', 'ama', 'boateng'],
      version: ['vera', 'lind', 'remix'],
    });
    expect(indexWords(text)).toEqual(['golden', 'tide', 'rhodes', 'rye', 'olu', 'adeyemi', 'ama', 'boateng', 'vera', 'lind']);
  });

  test('typed rows: decorations in either field', () => {
    const text = typedText('Kora Vale ft Dani Osei', 'midnight drive (extended mix)');
    expect(text).toEqual({ title: ['midnight', 'drive'], artist: ['kora', 'vale'], others: ['dani', 'osei'], version: ['extended'] });
    expect(queryWords(text)).toEqual(['midnight', 'drive', 'kora', 'vale', 'dani', 'osei']);
  });
});
