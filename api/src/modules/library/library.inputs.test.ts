import { describe, expect, test } from 'vitest';
import { refusal } from '../../../test/support/refusal.js';
import { parseInput } from '../../shared/inputs.js';
import { currentMixInput, SAVED_MIXES_PAGE_SIZE, trackIdInput, trackIdsInput } from './library.inputs.js';

const ID = '0b5f4a4e-8a3c-4c52-9d53-2b1e4f0c9a11';

describe('library inputs', () => {
  test('catalogue track ids: UUIDs, at most 1,000 in a list', () => {
    expect(SAVED_MIXES_PAGE_SIZE).toBe(50);
    expect(trackIdInput.parse(ID)).toBe(ID);
    for (const id of ['x', 5, undefined]) expect(refusal(trackIdInput, id)).toBe('trackId must be the id of a catalogue track');
    expect(trackIdsInput.parse(undefined)).toBeUndefined();
    expect(trackIdsInput.parse(Array(1000).fill(ID))).toHaveLength(1000);
    expect(refusal(trackIdsInput, Array(1001).fill(ID))).toBe('trackIds may list at most 1,000 tracks');
    expect(refusal(trackIdsInput, ID)).toBe('trackIds must be a list of catalogue track ids');
  });

  test("the current mix's position: seconds from 0 to a week, 0 when none", () => {
    expect(parseInput(currentMixInput, { mixId: ID })).toEqual({ mixId: ID, position: 0 });
    expect(parseInput(currentMixInput, { mixId: ID, position: null }).position).toBe(0);
    expect(parseInput(currentMixInput, { mixId: ID, position: 604_800 }).position).toBe(604_800);
    for (const position of [-1, 604_801, 'soon']) {
      expect(refusal(currentMixInput, { mixId: ID, position })).toBe('current_mix_pos must be a number of seconds from 0');
    }
  });
});
