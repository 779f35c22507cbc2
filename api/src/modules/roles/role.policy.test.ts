import { describe, expect, test } from 'vitest';
import { rolePolicy } from './role.policy.js';

describe('rolePolicy', () => {
  test('only operators read the rewards ledger', () => {
    expect(rolePolicy.canReadLedger('operator')).toBe(true);
    expect(rolePolicy.canReadLedger('moderator')).toBe(false);
    expect(rolePolicy.canReadLedger('member')).toBe(false);
    expect(() => rolePolicy.assertCanReadLedger('member')).toThrow(expect.objectContaining({ status: 403 }));
    expect(() => rolePolicy.assertCanReadLedger('moderator')).toThrow('Only operators may read the creator rewards ledger');
    expect(() => rolePolicy.assertCanReadLedger('operator')).not.toThrow();
  });

  test('parses the staff roles and nothing else', () => {
    expect(rolePolicy.parse('operator')).toBe('operator');
    expect(rolePolicy.parse('moderator')).toBe('moderator');
    expect(rolePolicy.parse('admin')).toBeNull();
    expect(rolePolicy.parse('member')).toBeNull();
  });
});

describe('rolePolicy: moderation', () => {
  test('moderators and operators review the queue; members do not', () => {
    expect(rolePolicy.canModerate('moderator')).toBe(true);
    expect(rolePolicy.canModerate('operator')).toBe(true);
    expect(rolePolicy.canModerate('member')).toBe(false);
    expect(() => rolePolicy.assertCanModerate('member')).toThrow(expect.objectContaining({ status: 403 }));
  });

  test('nobody decides an item they raised', () => {
    expect(() => rolePolicy.assertMayDecide('moderator', 'me', 'me')).toThrow(expect.objectContaining({ status: 403 }));
    expect(() => rolePolicy.assertMayDecide('operator', 'other', 'me')).not.toThrow();
    expect(() => rolePolicy.assertMayDecide('member', 'other', 'me')).toThrow(expect.objectContaining({ status: 403 }));
  });

  test('only operators read the audit log and run payouts', () => {
    expect(rolePolicy.canReadAudit('operator')).toBe(true);
    expect(rolePolicy.canReadAudit('moderator')).toBe(false);
    expect(rolePolicy.canRunPayouts('moderator')).toBe(false);
    expect(() => rolePolicy.assertCanRunPayouts('member')).toThrow(expect.objectContaining({ status: 403 }));
  });

  test('only operators set moderators, and never on an operator', () => {
    expect(() => rolePolicy.assertCanSetModerator('operator', 'member')).not.toThrow();
    expect(() => rolePolicy.assertCanSetModerator('operator', 'moderator')).not.toThrow();
    expect(() => rolePolicy.assertCanSetModerator('moderator', 'member')).toThrow(expect.objectContaining({ status: 403 }));
    expect(() => rolePolicy.assertCanSetModerator('operator', 'operator')).toThrow(expect.objectContaining({ status: 403 }));
  });
});
