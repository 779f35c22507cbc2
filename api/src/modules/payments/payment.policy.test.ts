import { describe, expect, test } from 'vitest';
import { paymentPolicy, RENEWAL_LEEWAY_MS } from './payment.policy.js';

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
