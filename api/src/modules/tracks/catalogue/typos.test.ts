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

  test('stops early past the limit', () => {
    expect(typoDistance('abcdefgh', 'zyxwvuts', 1)).toBe(2);
    expect(typoDistance('a', 'abcdef', 2)).toBe(3);
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
    expect(deletionKeys('moss')).toEqual(['moss']);
    expect(deletionKeys('drive')).toHaveLength(6);
  });
});
