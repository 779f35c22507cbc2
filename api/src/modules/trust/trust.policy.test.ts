import { describe, expect, test } from 'vitest';
import { STRIKE_LIMIT_DEFAULT, STRIKE_WINDOW_DAYS_DEFAULT } from '../../shared/rules.js';
import { STRIKE_POLICY_DEFAULT, TRUST_OPERATIONS, trustPolicy } from './trust.policy.js';

const now = new Date('2026-06-01T12:00:00Z');
const daysAgo = (days: number) => new Date(now.getTime() - days * 24 * 60 * 60 * 1000);

describe('who may', () => {
  test('moderator operations: moderators and operators; the strike policy: operators; member operations: anyone signed in', () => {
    for (const [operation, needs] of Object.entries(TRUST_OPERATIONS) as [keyof typeof TRUST_OPERATIONS, string][]) {
      if (needs === 'moderator') {
        expect(() => trustPolicy.assertMay(operation, 'member')).toThrow('Only moderators and operators');
        expect(() => trustPolicy.assertMay(operation, 'moderator')).not.toThrow();
        expect(() => trustPolicy.assertMay(operation, 'operator')).not.toThrow();
      } else if (needs === 'operator') {
        expect(() => trustPolicy.assertMay(operation, 'member')).toThrow('Only operators may set the strike policy');
        expect(() => trustPolicy.assertMay(operation, 'moderator')).toThrow('Only operators may set the strike policy');
        expect(() => trustPolicy.assertMay(operation, 'operator')).not.toThrow();
      } else expect(() => trustPolicy.assertMay(operation, 'member')).not.toThrow();
    }
    expect(TRUST_OPERATIONS.setStrikePolicy).toBe('operator');
    expect(TRUST_OPERATIONS.moderateTrustItem).toBe('moderator');
  });

  test('a notice: only a verified holder of a track in the mix', () => {
    expect(() => trustPolicy.assertCanFile(true, true)).not.toThrow();
    expect(() => trustPolicy.assertCanFile(false, true)).toThrow('Only a verified creator or label');
    expect(() => trustPolicy.assertCanFile(true, false)).toThrow('not in the mix');
    expect(() => trustPolicy.assertCanFile(false, false)).toThrow('Only a verified creator or label');
  });

  test('a notice is read by its filer, the owner and moderators; answered once, while open, by the owner', () => {
    expect(() => trustPolicy.assertCanReadNotice('filer', 'filer', 'owner', 'member')).not.toThrow();
    expect(() => trustPolicy.assertCanReadNotice('owner', 'filer', 'owner', 'member')).not.toThrow();
    expect(() => trustPolicy.assertCanReadNotice('mod', 'filer', 'owner', 'moderator')).not.toThrow();
    expect(() => trustPolicy.assertCanReadNotice('other', 'filer', 'owner', 'member')).toThrow('Only its filer');
    expect(() => trustPolicy.assertCanReadNotice('other', null, 'owner', 'member')).toThrow('Only its filer');
    expect(() => trustPolicy.assertCanCounter('owner', 'owner', 'open')).not.toThrow();
    expect(() => trustPolicy.assertCanCounter('filer', 'owner', 'open')).toThrow('Only the mix’s owner');
    expect(() => trustPolicy.assertCanCounter('owner', 'owner', 'countered')).toThrow('already answered');
    expect(() => trustPolicy.assertCanCounter('owner', 'owner', 'restored')).toThrow('has been decided');
    expect(() => trustPolicy.assertCanCounter('owner', 'owner', 'removed')).toThrow('has been decided');
  });

  test('the hold on a mix is shown to its owner and moderators', () => {
    expect(trustPolicy.seesHold('owner', 'owner', 'member')).toBe(true);
    expect(trustPolicy.seesHold('mod', 'owner', 'moderator')).toBe(true);
    expect(trustPolicy.seesHold('other', 'owner', 'member')).toBe(false);
    expect(trustPolicy.seesHold(null, 'owner', 'member')).toBe(false);
  });
});

describe('actions', () => {
  test('each kind takes its own actions; mix actions do not fit a member; dismiss and restore let an item go', () => {
    expect(trustPolicy.takes('report', 'hide_mix')).toBe(true);
    expect(trustPolicy.takes('report', 'remove_and_strike')).toBe(false);
    expect(trustPolicy.takes('copyright_notice', 'remove_and_strike')).toBe(true);
    expect(trustPolicy.takes('copyright_notice', 'dismiss')).toBe(false);
    expect(trustPolicy.takes('report', 'approve')).toBe(false);
    expect(() => trustPolicy.assertActionFits('report', 'mix', 'hide_mix')).not.toThrow();
    expect(() => trustPolicy.assertActionFits('report', 'member', 'suspend_member')).not.toThrow();
    expect(() => trustPolicy.assertActionFits('report', 'member', 'hide_mix')).toThrow('report of a member');
    expect(() => trustPolicy.assertActionFits('report', 'member', 'remove_mix')).toThrow('report of a member');
    expect(() => trustPolicy.assertActionFits('report', 'mix', 'restore')).toThrow('does not apply to a report');
    expect(() => trustPolicy.assertActionFits('copyright_notice', 'mix', 'warn')).toThrow('does not apply to a copyright notice');
    expect(trustPolicy.decisionOf('dismiss')).toBe('reject');
    expect(trustPolicy.decisionOf('restore')).toBe('reject');
    for (const action of ['hide_mix', 'remove_mix', 'warn', 'suspend_member', 'remove', 'remove_and_strike'] as const)
      expect(trustPolicy.decisionOf(action)).toBe('approve');
  });

  test('approve and reject through the generic decision', () => {
    expect(trustPolicy.defaultAction('copyright_notice', 'mix', 'approve')).toBe('remove');
    expect(trustPolicy.defaultAction('copyright_notice', 'mix', 'reject')).toBe('restore');
    expect(trustPolicy.defaultAction('report', 'mix', 'approve')).toBe('hide_mix');
    expect(trustPolicy.defaultAction('report', 'member', 'approve')).toBe('warn');
    expect(trustPolicy.defaultAction('report', 'mix', 'reject')).toBe('dismiss');
    expect(trustPolicy.defaultAction('report', 'member', 'reject')).toBe('dismiss');
  });
});

describe('repeat infringers', () => {
  const policy = { strikeLimit: 3, windowDays: 365 };

  test('the defaults are the shared rules', () => {
    expect(STRIKE_POLICY_DEFAULT).toEqual({ strikeLimit: STRIKE_LIMIT_DEFAULT, windowDays: STRIKE_WINDOW_DAYS_DEFAULT });
  });

  test('below the limit nothing is blocked; strikes older than the window do not count', () => {
    expect(trustPolicy.uploadBlock([], policy, now)).toBeNull();
    expect(trustPolicy.uploadBlock([daysAgo(1), daysAgo(2)], policy, now)).toBeNull();
    expect(trustPolicy.uploadBlock([daysAgo(1), daysAgo(2), daysAgo(365)], policy, now)).toBeNull();
    expect(trustPolicy.uploadBlock([daysAgo(1), daysAgo(2), daysAgo(400)], policy, now)).toBeNull();
  });

  test('at the limit uploads stop until the strike that keeps the count there leaves the window', () => {
    const block = trustPolicy.uploadBlock([daysAgo(10), daysAgo(100), daysAgo(200)], policy, now);
    expect(block).toMatchObject({ strikes: 3, until: new Date(daysAgo(200).getTime() + 365 * 24 * 60 * 60 * 1000) });
    expect(block?.message).toBe(
      'Uploads are blocked until 2026-11-13: 3 copyright strikes were upheld against your mixes in the strike window (docs/trust.md#repeat-infringers)',
    );
    // Four strikes: the block lasts until the second oldest leaves, whatever order they come in.
    const four = trustPolicy.uploadBlock([daysAgo(300), daysAgo(10), daysAgo(100), daysAgo(200)], policy, now);
    expect(four).toMatchObject({ strikes: 4, until: new Date(daysAgo(200).getTime() + 365 * 24 * 60 * 60 * 1000) });
    expect(trustPolicy.uploadBlock([daysAgo(10)], { strikeLimit: 1, windowDays: 30 }, now)?.until).toEqual(
      new Date(daysAgo(10).getTime() + 30 * 24 * 60 * 60 * 1000),
    );
  });
});
