import { describe, expect, test } from 'vitest';
import { refusal } from '../../../test/support/refusal.js';
import { parseInput } from '../../shared/inputs.js';
import { NOTICE_TEXT_MAX, REPORT_NOTE_MAX } from '../../shared/rules.js';
import { trustInputMessages as messages } from './trust.errors.js';
import {
  counterNoticeInput,
  noticeIdInput,
  noticeInput,
  pageInput,
  reportInput,
  restoreInput,
  strikePolicyInput,
  transparencyInput,
  trustActionInput,
} from './trust.inputs.js';

const id = '00000000-0000-4000-8000-000000000001';

describe('trust inputs', () => {
  test('a report: kinds and reasons in any case, a trimmed note, an unknown id as null', () => {
    expect(parseInput(reportInput, { targetKind: 'MIX', targetId: id, reason: 'Spam', note: '  links  ' })).toEqual({
      targetKind: 'mix',
      targetId: id,
      reason: 'spam',
      note: 'links',
    });
    expect(parseInput(reportInput, { targetKind: 'member', targetId: 'nope', reason: 'other', note: '' })).toEqual({
      targetKind: 'member',
      targetId: null,
      reason: 'other',
      note: null,
    });
    expect(() => parseInput(reportInput, { targetKind: 'track', targetId: id, reason: 'spam' })).toThrow(
      'targetKind must be MIX or MEMBER',
    );
    expect(() => parseInput(reportInput, { targetKind: 'mix', targetId: id, reason: 'meh' })).toThrow('reason must be');
    expect(() =>
      parseInput(reportInput, { targetKind: 'mix', targetId: id, reason: 'spam', note: 'x'.repeat(REPORT_NOTE_MAX + 1) }),
    ).toThrow();
    expect(() => parseInput(reportInput, { targetKind: 'mix', targetId: id, reason: 'spam', note: 'a\u0000b' })).toThrow('NUL');
  });

  test('a notice and a counter-notice need text, within the limit', () => {
    expect(parseInput(noticeInput, { mixId: id, trackId: id, text: ' mine ' })).toEqual({ mixId: id, trackId: id, text: 'mine' });
    expect(() => parseInput(noticeInput, { mixId: id, trackId: id, text: '  ' })).toThrow('Write the notice');
    expect(() => parseInput(noticeInput, { mixId: id, trackId: id, text: 'x'.repeat(NOTICE_TEXT_MAX + 1) })).toThrow();
    expect(() => parseInput(counterNoticeInput, { noticeId: id, text: '' })).toThrow('Write the counter-notice');
  });

  test('an action: its word, a reason, an end for a suspension', () => {
    expect(parseInput(trustActionInput, { itemId: id, action: 'SUSPEND_MEMBER', suspendedUntil: '2030-01-01T00:00:00Z' })).toEqual({
      itemId: id,
      action: 'suspend_member',
      reason: null,
      suspendedUntil: new Date('2030-01-01T00:00:00Z'),
    });
    expect(() => parseInput(trustActionInput, { itemId: id, action: 'ban' })).toThrow('action must be one of');
    expect(() => parseInput(trustActionInput, { itemId: id, action: 'warn', suspendedUntil: 'soon' })).toThrow('suspendedUntil');
  });

  test('the strike policy and the transparency months stay within their bounds', () => {
    expect(parseInput(strikePolicyInput, { strikeLimit: '4', windowDays: 30 })).toEqual({ strikeLimit: 4, windowDays: 30, reason: null });
    expect(() => parseInput(strikePolicyInput, { strikeLimit: 0, windowDays: 30 })).toThrow(
      'strikeLimit must be a whole number from 1 to 100',
    );
    expect(() => parseInput(strikePolicyInput, { strikeLimit: 3, windowDays: 3651 })).toThrow('windowDays must be');
    expect(() => parseInput(strikePolicyInput, { strikeLimit: 2.5, windowDays: 30 })).toThrow('strikeLimit');
    expect(parseInput(transparencyInput, {})).toEqual({ months: 12 });
    expect(parseInput(transparencyInput, { months: '3' })).toEqual({ months: 3 });
    expect(() => parseInput(transparencyInput, { months: 37 })).toThrow('months must be a whole number from 1 to 36');
    expect(parseInput(pageInput, {})).toEqual({ page: 0, first: 25 });
  });

  test('words are trimmed; a word that is no text, and numbers that are none, are refused with their own message', () => {
    expect(parseInput(reportInput, { targetKind: ' mix ', targetId: id, reason: ' abuse ' })).toMatchObject({
      targetKind: 'mix',
      reason: 'abuse',
    });
    expect(refusal(reportInput, { targetKind: 5, targetId: id, reason: 'spam' })).toBe(messages.targetKind);
    expect(refusal(strikePolicyInput, { strikeLimit: 'many', windowDays: 30 })).toBe(messages.strikeLimit);
    expect(refusal(transparencyInput, { months: 'all' })).toBe(messages.months(36));
  });

  test('pages keep the size asked for; ids and reasons of the small inputs come through', () => {
    expect(parseInput(pageInput, { page: 2, first: 10 })).toEqual({ page: 2, first: 10 });
    expect(parseInput(noticeIdInput, { noticeId: id })).toEqual({ noticeId: id });
    expect(parseInput(restoreInput, { id, reason: ' appeal upheld ' })).toEqual({ id, reason: 'appeal upheld' });
  });
});
