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
