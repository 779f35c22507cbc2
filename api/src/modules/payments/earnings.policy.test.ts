import { describe, expect, test } from 'vitest';
import { earningsPolicy } from './earnings.policy.js';

describe('earningsPolicy', () => {
  test('only verified creators have earnings', () => {
    expect(() => earningsPolicy.assertCreator([])).toThrow(expect.objectContaining({ status: 403 }));
    expect(() => earningsPolicy.assertCreator([])).toThrow('Only verified creators have earnings: claim your creator name first');
    expect(() => earningsPolicy.assertCreator(['name:tomi sato'])).not.toThrow();
  });

  test('pays a balance from the minimum on, to enabled accounts, once', () => {
    expect(earningsPolicy.shouldPay(999, 1000)).toBe(false);
    expect(earningsPolicy.shouldPay(1000, 1000)).toBe(true);
    expect(earningsPolicy.shouldPay(0, 0)).toBe(false);
    expect(earningsPolicy.canReceive('enabled')).toBe(true);
    expect(earningsPolicy.canReceive('onboarding')).toBe(false);
    expect(earningsPolicy.needsTransfer('paid')).toBe(false);
    expect(earningsPolicy.needsTransfer('failed')).toBe(true);
    expect(earningsPolicy.idempotencyKey('u1', '2026-12')).toBe('payout-u1-2026-12');
  });
});
