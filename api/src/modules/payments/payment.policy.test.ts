import { describe, expect, test } from 'vitest';
import {
  activeSubscriptionSql,
  CREATOR_SHARE_PERCENT,
  countedProviderSql,
  MIN_REWARDED_LISTEN_SECONDS,
  paymentPolicy,
  RENEWAL_LEEWAY_MS,
  SINGLE_PURCHASE_CENTS,
} from './payment.policy.js';

const at = (iso: string) => new Date(iso);

describe('paymentPolicy', () => {
  test('the creators’ share is 70% in whole cents, rounded half up', () => {
    expect([1, 5, 400, 999, 1000, 3].map(paymentPolicy.creatorsShareCents)).toEqual([1, 4, 280, 699, 700, 2]);
  });

  test('a subscription hosts while live and within its period (plus the renewal leeway)', () => {
    const now = at('2026-06-01T00:00:00Z');
    const live = { status: 'active' as const, endedAt: null, currentPeriodEnd: at('2026-06-15T00:00:00Z') };
    expect(paymentPolicy.isActive(live, now)).toBe(true);
    expect(paymentPolicy.isActive({ ...live, status: 'past_due' }, now)).toBe(true);
    expect(paymentPolicy.isActive({ ...live, status: 'canceled' }, now)).toBe(false);
    expect(paymentPolicy.isActive({ ...live, endedAt: now }, now)).toBe(false);
    expect(paymentPolicy.isActive({ ...live, currentPeriodEnd: new Date(now.getTime() - RENEWAL_LEEWAY_MS + 1000) }, now)).toBe(true);
    expect(paymentPolicy.isActive({ ...live, currentPeriodEnd: new Date(now.getTime() - RENEWAL_LEEWAY_MS - 1000) }, now)).toBe(false);
  });

  test('newer words replace older ones; nothing revives a canceled subscription', () => {
    const held = { status: 'active' as const, stateAsOf: at('2026-06-01T00:00:00Z') };
    expect(paymentPolicy.acceptsState(null, at('2020-01-01T00:00:00Z'))).toBe(true);
    expect(paymentPolicy.acceptsState(held, at('2026-06-01T00:00:01Z'))).toBe(true);
    expect(paymentPolicy.acceptsState(held, at('2026-05-31T23:59:59Z'))).toBe(false);
    expect(paymentPolicy.acceptsState({ ...held, status: 'canceled' }, at('2027-01-01T00:00:00Z'))).toBe(false);
  });

  test('a published mix may be renewed unless an active subscription hosts it with no end', () => {
    expect(paymentPolicy.canRenew({ expiresAt: at('2027-01-01T00:00:00Z') }, true)).toBe(true);
    expect(paymentPolicy.canRenew({ expiresAt: null }, true)).toBe(false);
    expect(paymentPolicy.canRenew({ expiresAt: null }, false)).toBe(true);
  });

  test('subscription-hosted mixes end a grace period after the subscription', () => {
    expect(paymentPolicy.subscriptionHostingEnds(at('2026-06-01T00:00:00Z'), 30)).toEqual(at('2026-07-01T00:00:00Z'));
  });

  test('the BETA code shown to everyone is the well-known one, only while it is accepted', () => {
    expect(paymentPolicy.openBetaCode(['free-mix', 'vip-2026'])).toBe('free-mix');
    expect(paymentPolicy.openBetaCode(['vip-2026'])).toBeNull();
    expect(paymentPolicy.openBetaCode([])).toBeNull();
  });
});

describe('the prices and the SQL twins (docs/payments.md#prices)', () => {
  test('$4.00 a mix, 70% to creators, listens from 30 seconds, two days of renewal leeway', () => {
    expect([SINGLE_PURCHASE_CENTS, CREATOR_SHARE_PERCENT, MIN_REWARDED_LISTEN_SECONDS]).toEqual([400, 70, 30]);
    expect(RENEWAL_LEEWAY_MS).toBe(172_800_000);
  });

  test('the statuses that host, and the test mode counted only while it is the provider', () => {
    // Which rows these let through is tested on PostgreSQL by the payments suites; the text is pinned for the unit run.
    expect(countedProviderSql('s', true)).toBe('true');
    expect(countedProviderSql('s', false)).toBe(`s.provider <> 'test'`);
    expect(activeSubscriptionSql('s', false)).toBe(
      `s.provider <> 'test' and s.status in ('active', 'trialing', 'past_due') and s.ended_at is null
  and (s.current_period_end is null or s.current_period_end > now() - interval '172800 seconds')`,
    );
    expect(activeSubscriptionSql('x', true).startsWith('true and x.status in')).toBe(true);
  });

  test('a trialing subscription hosts; one without a period end hosts until it ends; only a canceled one is final', () => {
    const now = at('2026-06-01T00:00:00Z');
    expect(paymentPolicy.isActive({ status: 'trialing', endedAt: null, currentPeriodEnd: null }, now)).toBe(true);
    expect(paymentPolicy.isActive({ status: 'incomplete', endedAt: null, currentPeriodEnd: null }, now)).toBe(false);
    expect(
      paymentPolicy.isActive({ status: 'active', endedAt: null, currentPeriodEnd: new Date(now.getTime() - RENEWAL_LEEWAY_MS) }, now),
    ).toBe(false);
    expect(paymentPolicy.isFinal('canceled')).toBe(true);
    expect(paymentPolicy.isFinal('past_due')).toBe(false);
    expect(paymentPolicy.acceptsState({ status: 'active', stateAsOf: now }, now)).toBe(true);
  });
});
