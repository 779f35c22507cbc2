import { describe, expect, test } from 'vitest';
import { encodeCursor } from '../../shared/cursor.js';
import { parseInput } from '../../shared/inputs.js';
import { notificationIdInput, notificationPageInput } from './notification.inputs.js';

const ID = '0b5f4a4e-8a3c-4c52-9d53-2b1e4f0c9a11';

describe('notification inputs', () => {
  test('pages of up to 100, after a notification (its time and id)', () => {
    const key = ['2026-11-24T10:00:00.123456Z', ID];
    expect(parseInput(notificationPageInput, { first: 100, after: encodeCursor(key) })).toEqual({
      size: 100,
      backward: false,
      cursor: key,
    });
    expect(() => parseInput(notificationPageInput, { first: 101 })).toThrow('first must be a whole number from 1 to 100');
    expect(() => parseInput(notificationPageInput, { after: encodeCursor([ID]) })).toThrow('Invalid cursor');
    expect(notificationIdInput.parse(ID)).toBe(ID);
  });
});
