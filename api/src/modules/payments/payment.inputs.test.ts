import { describe, expect, test } from 'vitest';
import { refusal } from '../../../test/support/refusal.js';
import { parseInput } from '../../shared/inputs.js';
import { paymentInputMessages } from './payment.errors.js';
import {
  earningsInput,
  MAX_EARNINGS_PAGE,
  periodInput,
  publishInput,
  sessionIdInput,
  singlePurchaseInput,
  subscriptionInput,
} from './payment.inputs.js';

const ID = '0b5f4a4e-8a3c-4c52-9d53-2b1e4f0c9a11';

describe('payment inputs', () => {
  test('checkout session ids: 4 to 255 letters, digits and underscores', () => {
    expect(sessionIdInput.parse('cs_test_mixcrate_1')).toBe('cs_test_mixcrate_1');
    expect(sessionIdInput.parse('abcd')).toBe('abcd');
    expect(sessionIdInput.parse('a'.repeat(255))).toHaveLength(255);
    for (const id of ['abc', 'a'.repeat(256), 'cs-1234', 'x cs_1234', 'cs_1234 x', 5]) {
      expect(refusal(sessionIdInput, id), String(id)).toBe(paymentInputMessages.sessionId);
    }
  });

  test('publishing: a code compared trimmed and lower-cased (none when blank), a session or none', () => {
    expect(parseInput(publishInput, { mixId: ID, code: ' FREE-Mix ' })).toEqual({ mixId: ID, code: 'free-mix', sessionId: null });
    expect(parseInput(publishInput, { mixId: ID, code: '  ', sessionId: 'cs_1234' })).toEqual({
      mixId: ID,
      code: null,
      sessionId: 'cs_1234',
    });
    expect(parseInput(publishInput, { mixId: 'x', code: null, sessionId: null })).toEqual({ mixId: null, code: null, sessionId: null });
    expect(parseInput(publishInput, { mixId: ID, code: 'c'.repeat(64) }).code).toHaveLength(64);
    expect(refusal(publishInput, { mixId: ID, code: 'c'.repeat(65) })).toBe(paymentInputMessages.code);
    expect(refusal(publishInput, { mixId: ID, code: 5 })).toBe(paymentInputMessages.code);
    expect(refusal(publishInput, { mixId: ID, code: 'a\u0000' })).toBe('code contains a NUL character');
    expect(parseInput(singlePurchaseInput, { mixId: ID })).toEqual({ mixId: ID });
  });

  test('a subscription: a draft id, none (left out or blank), or one that is no id (null)', () => {
    expect(parseInput(subscriptionInput, { mixId: ID })).toEqual({ mixId: ID });
    for (const none of [undefined, null, '']) expect(parseInput(subscriptionInput, { mixId: none }).mixId).toBeUndefined();
    expect(parseInput(subscriptionInput, { mixId: 'x' }).mixId).toBeNull();
  });

  test('earnings: a month as YYYY-MM, a creator or none, up to 1,000 a page (100 by default)', () => {
    expect(MAX_EARNINGS_PAGE).toBe(1000);
    expect(parseInput(earningsInput, { period: '2026-01', creator: '  ' })).toEqual({ period: '2026-01', creator: null, first: 100 });
    expect(parseInput(earningsInput, { period: '2026-12', creator: ' Kora ', first: 1000 })).toEqual({
      period: '2026-12',
      creator: 'Kora',
      first: 1000,
    });
    for (const period of ['2026-00', '2026-13', '2026-1', '26-01', 'x2026-01', '2026-01x', 202601]) {
      expect(refusal(periodInput, period), String(period)).toBe(paymentInputMessages.period);
    }
    expect(refusal(earningsInput, { period: '2026-01', creator: 'c'.repeat(256) })).toBe('creator must be at most 255 characters');
    expect(refusal(earningsInput, { period: '2026-01', first: 1001 })).toBe('first must be a whole number from 1 to 1000');
  });
});
