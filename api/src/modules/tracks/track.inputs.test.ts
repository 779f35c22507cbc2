import { describe, expect, test } from 'vitest';
import { refusal } from '../../../test/support/refusal.js';
import { encodeCursor } from '../../shared/cursor.js';
import { parseInput } from '../../shared/inputs.js';
import { TRACK_SEARCH_MAX_LENGTH, trackIdInput, tracklistLimitInput, trackSearchInput } from './track.inputs.js';

const ID = '0b5f4a4e-8a3c-4c52-9d53-2b1e4f0c9a11';

describe('track inputs', () => {
  test("how many of a tracklist's first entries: 1 to 30, or all", () => {
    expect(tracklistLimitInput.parse(null)).toBeNull();
    expect(tracklistLimitInput.parse(1)).toBe(1);
    expect(tracklistLimitInput.parse(30)).toBe(30);
    for (const first of [0, 31, 1.5, '4']) expect(refusal(tracklistLimitInput, first)).toBe('first must be a whole number from 1 to 30');
  });

  test('browsing the catalogue: search text (blank is everything) and pages by catalogue number', () => {
    expect(parseInput(trackSearchInput, {})).toEqual({ size: 20, backward: false, cursor: null, search: null });
    expect(parseInput(trackSearchInput, { search: '  ' }).search).toBeNull();
    expect(parseInput(trackSearchInput, { search: ' moss ', first: 50, after: encodeCursor(['1234567890']) })).toEqual({
      size: 50,
      backward: false,
      cursor: 1_234_567_890,
      search: 'moss',
    });
    expect(parseInput(trackSearchInput, { search: 's'.repeat(TRACK_SEARCH_MAX_LENGTH) }).search).toHaveLength(200);
    expect(refusal(trackSearchInput, { search: 's'.repeat(201) })).toBe('search must be at most 200 characters');
    expect(refusal(trackSearchInput, { first: 51 })).toBe('first must be a whole number from 1 to 50');
    for (const key of [['12345678901'], ['x'], ['1', '2'], []]) {
      expect(() => parseInput(trackSearchInput, { after: encodeCursor(key) }), key.join()).toThrow('Invalid cursor');
    }
    expect(trackIdInput.parse(ID)).toBe(ID);
  });
});
