import { describe, expect, test } from 'vitest';
import { ForbiddenError } from '../../shared/errors.js';
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

describe('role policy refusals, word for word', () => {
  const refusal = (act: () => void) => {
    try {
      act();
    } catch (error) {
      if (error instanceof ForbiddenError) return error.message;
      throw error;
    }
    return null;
  };

  test('each refusal says who may, and nobody else is refused', () => {
    expect(refusal(() => rolePolicy.assertCanModerate('member'))).toBe('Only moderators and operators may review the moderation queue');
    expect(refusal(() => rolePolicy.assertCanModerate('moderator'))).toBeNull();
    expect(refusal(() => rolePolicy.assertMayDecide('moderator', 'me', 'me'))).toBe('Another moderator decides items you raised yourself');
    expect(refusal(() => rolePolicy.assertMayDecide('moderator', 'other', 'me'))).toBeNull();
    expect(refusal(() => rolePolicy.assertMayDecide('moderator', null, 'me'))).toBeNull();
    expect(refusal(() => rolePolicy.assertCanReadAudit('moderator'))).toBe('Only operators may read the audit log');
    expect(refusal(() => rolePolicy.assertCanReadAudit('member'))).toBe('Only operators may read the audit log');
    expect(refusal(() => rolePolicy.assertCanReadAudit('operator'))).toBeNull();
    expect(refusal(() => rolePolicy.assertCanSetModerator('moderator', 'member'))).toBe(
      'Only operators may grant or revoke the moderator role',
    );
    expect(refusal(() => rolePolicy.assertCanSetModerator('operator', 'operator'))).toBe(
      'Operators are granted and revoked from the command line only',
    );
    expect(refusal(() => rolePolicy.assertCanSetModerator('operator', 'moderator'))).toBeNull();
    expect(rolePolicy.canRunPayouts('operator')).toBe(true);
    expect(rolePolicy.canRunPayouts('moderator')).toBe(false);
    expect(refusal(() => rolePolicy.assertCanRunPayouts('moderator'))).toBe('Only operators may run payouts');
    expect(refusal(() => rolePolicy.assertCanRunPayouts('operator'))).toBeNull();
  });
});
