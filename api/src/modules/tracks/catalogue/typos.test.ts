import { describe, expect, test } from 'vitest';
import { deletionKeys, typoBudget, typoDistance } from './typos.js';

describe('typos', () => {
  test('budget by word length, as Meilisearch', () => {
    expect([1, 4, 5, 8, 9, 20].map(typoBudget)).toEqual([0, 0, 1, 1, 2, 2]);
  });

  test('a swap of neighbours is one typo', () => {
    expect(typoDistance('midnight', 'midnigth', 2)).toBe(1);
    expect(typoDistance('drive', 'dirve', 2)).toBe(1);
    expect(typoDistance('drive', 'drie', 2)).toBe(1);
    expect(typoDistance('drive', 'drivee', 2)).toBe(1);
    expect(typoDistance('harbour', 'harbor', 2)).toBe(1);
    expect(typoDistance('kitten', 'sitting', 5)).toBe(3);
  });

  test('equal words are no typo, whatever the limit', () => {
    expect(typoDistance('moss', 'moss', 0)).toBe(0);
    expect(typoDistance('', '', 0)).toBe(0);
    expect(typoDistance('moss', '', 4)).toBe(4);
    expect(typoDistance('', 'moss', 4)).toBe(4);
  });

  test('a distance equal to the limit is still the distance', () => {
    // A length gap, a row's least value or the last cell equal to the limit: each must not count as past it.
    expect(typoDistance('drive', 'drivee', 1)).toBe(1);
    expect(typoDistance('drive', 'drie', 1)).toBe(1);
    expect(typoDistance('drive', 'dirve', 1)).toBe(1);
    expect(typoDistance('drive', 'drove', 1)).toBe(1);
    expect(typoDistance('drive', 'dive', 1)).toBe(1);
    expect(typoDistance('lantern', 'latnren', 2)).toBe(2);
    expect(typoDistance('moss', 'mass', 1)).toBe(1);
  });

  test('stops early past the limit, and never answers more than one past it', () => {
    expect(typoDistance('abcdefgh', 'zyxwvuts', 1)).toBe(2);
    expect(typoDistance('a', 'abcdef', 2)).toBe(3);
    expect(typoDistance('drive', 'dirv', 1)).toBe(2);
    expect(typoDistance('drive', 'drivers', 1)).toBe(2);
    // Every row stays within the limit but the last cell is 4: the answer is still the limit plus one.
    expect(typoDistance('ab', 'cdxy', 2)).toBe(3);
    expect(typoDistance('ab', 'cdxy', 5)).toBe(4);
  });

  test('a swap needs both letters to cross: one letter matching across is two typos', () => {
    expect(typoDistance('ab', 'ba', 2)).toBe(1);
    expect(typoDistance('ab', 'ca', 2)).toBe(2);
    expect(typoDistance('ab', 'bc', 2)).toBe(2);
    expect(typoDistance('dab', 'dca', 2)).toBe(2);
    expect(typoDistance('dab', 'dbc', 2)).toBe(2);
    // Optimal string alignment: a swapped pair is not edited again.
    expect(typoDistance('ca', 'abc', 3)).toBe(3);
  });

  test('words longer than the rows kept between calls', () => {
    const long = 'abcdefghij'.repeat(7);
    const swapped = `${long.slice(0, 30)}${long[31]}${long[30]}${long.slice(32, 60)}z${long.slice(61)}`;
    expect(typoDistance(long, swapped, 3)).toBe(2);
    expect(typoDistance(swapped, long, 1)).toBe(2);
    expect(typoDistance(long, long.slice(1), 2)).toBe(1);
    // Short words after the rows grew.
    expect(typoDistance('drive', 'dirve', 2)).toBe(1);
  });

  test('deletion keys, key by key', () => {
    // Below five letters no typo is allowed: the word alone.
    expect(deletionKeys('moss')).toEqual(['moss']);
    // One deletion from five to eight letters: every letter in turn, the first and the last included.
    expect(deletionKeys('drive')).toEqual(['drive', 'rive', 'dive', 'drve', 'drie', 'driv']);
    expect(deletionKeys('midnight')).toHaveLength(9);
    // A doubled letter gives one key, not two.
    expect(deletionKeys('coffee')).toEqual(['coffee', 'offee', 'cffee', 'cofee', 'coffe']);
    // Two deletions from nine letters: every pair of positions.
    const nine = deletionKeys('abcdefghi');
    expect(nine).toHaveLength(1 + 9 + 36);
    expect(nine).toContain('bcdefgh');
    expect(nine).toContain('acdefghi');
    expect(nine).toContain('abcdefg');
    expect(nine).not.toContain('abcdef');
  });

  test('deletion keys meet for words within the budget', () => {
    const meet = (a: string, b: string) => deletionKeys(a).some((key) => deletionKeys(b).includes(key));
    expect(meet('midnight', 'midnigth')).toBe(true);
    expect(meet('drive', 'drave')).toBe(true);
    expect(meet('drive', 'drie')).toBe(true);
    expect(meet('lantern', 'lanterns')).toBe(true);
    expect(meet('horizon', 'hroizon')).toBe(true);
    expect(meet('restless', 'reslets')).toBe(false);
    expect(meet('crystalline', 'crsytallien')).toBe(true);
  });
});
