import { describe, expect, test } from 'vitest';
import { refusal } from '../../../test/support/refusal.js';
import { parseInput } from '../../shared/inputs.js';
import { moderationInputMessages } from './moderation.errors.js';
import { auditInput, decisionInput, MODERATION_PAGE_MAX, moderatorInput, queueInput } from './moderation.inputs.js';

const ID = '0b5f4a4e-8a3c-4c52-9d53-2b1e4f0c9a11';

describe('moderation inputs', () => {
  test('the queue: open items by default, pages from 0 of 25 by default, up to 100', () => {
    expect(MODERATION_PAGE_MAX).toBe(100);
    expect(parseInput(queueInput, {})).toEqual({ status: 'open', page: 0, first: 25 });
    expect(parseInput(queueInput, { status: null, page: null, first: null })).toEqual({ status: 'open', page: 0, first: 25 });
    expect(parseInput(queueInput, { status: 'rejected', page: 2, first: 100 })).toEqual({ status: 'rejected', page: 2, first: 100 });
    expect(refusal(queueInput, { status: 'lost' })).toBe(moderationInputMessages.status);
    expect(refusal(queueInput, { first: 101 })).toBe('first must be a whole number from 1 to 100');
    expect(refusal(queueInput, { page: -1 })).toBe('page must be a whole number from 0');
    expect(parseInput(auditInput, { page: 1 })).toEqual({ page: 1, first: 25 });
  });

  test('a decision: approve or reject, with a reason of at most 1,000 characters or none', () => {
    expect(parseInput(decisionInput, { itemId: ID, decision: 'approve', reason: ' ok ' })).toEqual({
      itemId: ID,
      decision: 'approve',
      reason: 'ok',
    });
    expect(parseInput(decisionInput, { itemId: 'x', decision: 'reject', reason: '  ' })).toEqual({
      itemId: null,
      decision: 'reject',
      reason: null,
    });
    expect(parseInput(decisionInput, { itemId: ID, decision: 'reject' }).reason).toBeNull();
    expect(refusal(decisionInput, { itemId: ID, decision: 'maybe' })).toBe(moderationInputMessages.decision);
    expect(refusal(decisionInput, { itemId: ID, decision: 'reject', reason: 'r'.repeat(1001) })).toBe(
      'reason must be at most 1000 characters',
    );
  });

  test('a moderator: a member named by text of 1 to 320 characters, granted or not', () => {
    expect(parseInput(moderatorInput, { member: ' ana ', grant: true })).toEqual({ member: 'ana', grant: true, reason: null });
    expect(parseInput(moderatorInput, { member: 'ana', grant: false, reason: 'left' }).reason).toBe('left');
    expect(refusal(moderatorInput, { member: '  ', grant: true })).toBe(moderationInputMessages.member);
    expect(refusal(moderatorInput, { member: 'm'.repeat(321), grant: true })).toBe('member must be at most 320 characters');
    expect(refusal(moderatorInput, { member: 'ana', grant: 'yes' })).toBe('grant must be a boolean');
  });
});
