import { describe, expect, it } from 'vitest';
import { hostingText, planText } from './BillingSection';
import { listeningTime, periodLabel } from './EarningsSection';

describe('billing and earnings in words', () => {
  const subscription = {
    status: 'active',
    active: true,
    currentPeriodEnd: '2026-12-24T12:00:00.000Z',
    cancelAtPeriodEnd: false,
    endedAt: null,
  };

  it('says the plan and when it renews or ends', () => {
    expect(planText({ subscribed: true, subscription, subscriptionCents: 999 })).toBe('Subscription: active, renews Dec 24th 26');
    expect(planText({ subscribed: true, subscription: { ...subscription, cancelAtPeriodEnd: true }, subscriptionCents: 999 })).toBe(
      'Subscription: canceled, ends Dec 24th 26',
    );
    expect(planText({ subscribed: false, subscription: null, subscriptionCents: 999 })).toBe(
      'No subscription: single uploads, or unlimited uploads for $9.99 a month',
    );
  });

  it('says when hosting ends', () => {
    expect(hostingText({ hosting: 'SINGLE', expiresAt: '2027-11-24T12:00:00.000Z', isExpired: false })).toBe('Hosting ends Nov 24th 27');
    expect(hostingText({ hosting: 'SUBSCRIPTION', expiresAt: null, isExpired: false })).toBe('Hosted while your subscription is active');
    expect(hostingText({ hosting: 'CODE', expiresAt: '2025-11-24T12:00:00.000Z', isExpired: true })).toBe('Hosting ended Nov 24th 25');
  });

  it('names periods and listening time', () => {
    expect(periodLabel('2026-11')).toBe('November 2026');
    expect(listeningTime(5431.6)).toBe('1:30:31');
    expect(listeningTime(31)).toBe('0:00:31');
  });
});
