import { describe, expect, test } from 'vitest';
import { encodeCursor } from '../../shared/cursor.js';
import { FOLLOW_PAGE_SIZE, memberIdInput, parseFollowPage, userNameInput } from './follow.inputs.js';

const ID = '0b5f4a4e-8a3c-4c52-9d53-2b1e4f0c9a11';

describe('follow inputs', () => {
  test('numbered pages from 1, 20 a page', () => {
    expect(FOLLOW_PAGE_SIZE).toBe(20);
    expect(parseFollowPage({ page: 1 })).toEqual({ offset: 0, limit: 20 });
    expect(parseFollowPage({ page: '3' })).toEqual({ offset: 40, limit: 20 });
    expect(() => parseFollowPage({ page: 0 })).toThrow('page must be a whole number from 1');
  });

  test('cursor pages: a position of up to seven digits, 1 to 100 a page', () => {
    expect(parseFollowPage({ first: 100, after: encodeCursor(['41']) })).toEqual({ size: 100, backward: false, cursor: 41 });
    expect(parseFollowPage({ last: 2, before: encodeCursor(['9999999']) })).toEqual({ size: 2, backward: true, cursor: 9_999_999 });
    expect(parseFollowPage({})).toEqual({ size: 20, backward: false, cursor: null });
    for (const key of [['12345678'], ['x'], ['1', '2'], ['-1'], [' 1']]) {
      expect(() => parseFollowPage({ after: encodeCursor(key) }), key.join()).toThrow('Invalid cursor');
    }
    expect(() => parseFollowPage({ first: 101 })).toThrow('first must be a whole number from 1 to 100');
  });

  test('ids and user names', () => {
    expect(memberIdInput.parse(ID)).toBe(ID);
    expect(memberIdInput.parse('x')).toBeNull();
    expect(userNameInput.parse(' ana ')).toBe('ana');
    expect(userNameInput.safeParse('a'.repeat(101)).success).toBe(false);
  });
});
