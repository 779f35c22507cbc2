import cluster from 'node:cluster';
import { describe, expect, test } from 'vitest';
import { TooManyRequestsError } from '../../shared/errors.js';
import { AUTH_LIMITS, keepClusterRateLimits, type LimitName, RateLimits, refusalOf } from './rate-limits.js';

/** Spends `times` points of one limit for one key; answers the 429 of the first refusal, or null. */
async function spend(limits: RateLimits, name: LimitName, key: string, times: number): Promise<TooManyRequestsError | null> {
  for (let i = 0; i < times; i++) {
    try {
      await limits.consume([[name, key]]);
    } catch (error) {
      if (error instanceof TooManyRequestsError) return error;
      throw error;
    }
  }
  return null;
}

describe('the rate-limit table (docs/accounts.md#attempt-limits)', () => {
  test('the documented numbers', () => {
    const quarter = 15 * 60;
    const hour = 60 * 60;
    expect(AUTH_LIMITS).toEqual({
      signInPerIp: { points: 30, durationSeconds: quarter },
      signInPerEmail: { points: 10, durationSeconds: quarter },
      signUpPerIp: { points: 10, durationSeconds: hour },
      resetPerIp: { points: 10, durationSeconds: hour },
      resetPerEmail: { points: 3, durationSeconds: hour },
      newPasswordPerIp: { points: 10, durationSeconds: quarter },
      passwordCheckPerIp: { points: 30, durationSeconds: quarter },
      passwordCheckPerMember: { points: 10, durationSeconds: quarter },
      wrongBetaCodePerMember: { points: 10, durationSeconds: hour },
      locationChangePerMember: { points: 5, durationSeconds: hour, counts: 'location changes' },
      creatorClaimPerMember: { points: 5, durationSeconds: 24 * hour, counts: 'creator claims' },
    });
  });

  test('sign-in per address: 30 attempts with 30 different emails pass, the 31st is refused for 15 minutes', async () => {
    const limits = new RateLimits();
    for (let i = 0; i < 30; i++)
      await limits.consume([
        ['signInPerIp', '192.0.2.1'],
        ['signInPerEmail', `e${i}@example.com`],
      ]);
    const refusal = await limits
      .consume([
        ['signInPerIp', '192.0.2.1'],
        ['signInPerEmail', 'e30@example.com'],
      ])
      .catch((error) => error);
    expect(refusal).toBeInstanceOf(TooManyRequestsError);
    expect(refusal.message).toMatch(/^Too many attempts\. Please try again in 1[45] minutes\.$/);
    expect(refusal.retryAfterSeconds).toBeGreaterThan(14 * 60);
    expect(refusal.retryAfterSeconds).toBeLessThanOrEqual(15 * 60);
    // Another address has its own count.
    await expect(limits.consume([['signInPerIp', '192.0.2.2']])).resolves.toBeUndefined();
  });

  test('each limit refuses exactly the attempt after its points, per key', async () => {
    const limits = new RateLimits();
    for (const [name, limit] of Object.entries(AUTH_LIMITS) as [LimitName, (typeof AUTH_LIMITS)[LimitName]][]) {
      expect(await spend(limits, name, 'k', limit.points), name).toBeNull();
      expect(await spend(limits, name, 'k', 1), name).toBeInstanceOf(TooManyRequestsError);
      expect(await spend(limits, name, 'other', 1), name).toBeNull();
    }
  });

  test('a limit that names what it counts says so, with its window', async () => {
    const refusal = await spend(new RateLimits(), 'locationChangePerMember', 'm', 6);
    expect(refusal?.message).toMatch(/^Too many location changes: at most 5 in an hour\. Please try again in (59|60) minutes\.$/);
  });

  test('a day’s limit: the 6th creator claim is refused for about a day, in hours', async () => {
    const refusal = await spend(new RateLimits(), 'creatorClaimPerMember', 'm', 6);
    expect(refusal?.message).toMatch(/^Too many creator claims: at most 5 in a day\. Please try again in 2[34] hours\.$/);
    expect(refusal?.retryAfterSeconds).toBeGreaterThan(23 * 3600);
  });

  test('refuseWhenSpent refuses once the points are spent, without spending one', async () => {
    const limits = new RateLimits();
    await limits.refuseWhenSpent('wrongBetaCodePerMember', 'm');
    expect(await spend(limits, 'wrongBetaCodePerMember', 'm', 9)).toBeNull();
    await limits.refuseWhenSpent('wrongBetaCodePerMember', 'm');
    await limits.refuseWhenSpent('wrongBetaCodePerMember', 'm');
    expect(await spend(limits, 'wrongBetaCodePerMember', 'm', 1)).toBeNull();
    const refusal = await limits.refuseWhenSpent('wrongBetaCodePerMember', 'm').catch((error) => error);
    expect(refusal).toBeInstanceOf(TooManyRequestsError);
    expect(refusal.message).toMatch(/^Too many attempts\. Please try again in (59|60) minutes\.$/);
  });

  test('an error that is not a refusal passes through', async () => {
    const limits = new RateLimits();
    const broken = new Error('store down');
    Object.assign(limits, { limiters: { signInPerIp: { consume: () => Promise.reject(broken) } } });
    await expect(limits.consume([['signInPerIp', 'x']])).rejects.toBe(broken);
  });
});

describe('the words of a 429', () => {
  test('the wait: seconds under two minutes, whole minutes (rounded up) from two', () => {
    const limit = { points: 3, durationSeconds: 60 };
    expect(refusalOf(limit, 1)).toBe('Too many attempts. Please try again in 1 seconds.');
    expect(refusalOf(limit, 119)).toBe('Too many attempts. Please try again in 119 seconds.');
    expect(refusalOf(limit, 120)).toBe('Too many attempts. Please try again in 2 minutes.');
    expect(refusalOf(limit, 121)).toBe('Too many attempts. Please try again in 3 minutes.');
  });

  test('a limit that names what it counts: its window as an hour, hours or minutes', () => {
    const named = (durationSeconds: number) => refusalOf({ points: 5, durationSeconds, counts: 'tries' }, 30);
    expect(named(3600)).toBe('Too many tries: at most 5 in an hour. Please try again in 30 seconds.');
    expect(named(7200)).toBe('Too many tries: at most 5 in 2 hours. Please try again in 30 seconds.');
    expect(named(900)).toBe('Too many tries: at most 5 in 15 minutes. Please try again in 30 seconds.');
    expect(named(5400)).toBe('Too many tries: at most 5 in 90 minutes. Please try again in 30 seconds.');
  });

  test("without Redis, a cluster's primary keeps the counts: it listens for its workers", () => {
    const before = cluster.listenerCount('message');
    keepClusterRateLimits();
    expect(cluster.listenerCount('message')).toBeGreaterThan(before);
  });
});
