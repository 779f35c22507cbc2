import cluster from 'node:cluster';
import type { Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterCluster,
  RateLimiterClusterMaster,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import { TooManyRequestsError } from '../../shared/errors.js';
import { CREATOR_CLAIMS_PER_DAY, LOCATION_CHANGES_PER_HOUR } from '../../shared/rules.js';

export interface Limit {
  points: number;
  durationSeconds: number;
  /** What a point is spent on, for a refusal that names the limit ("location changes"); else "attempts", unnamed. */
  counts?: string;
}

/**
 * Per-IP, per-email and per-member limits for the account operations attackers like, and for every path that spends a
 * bcrypt hash (about a quarter of a second of CPU each): sign-in, sign-up, password reset and its new password, the
 * password check and change.
 */
export const AUTH_LIMITS = {
  signInPerIp: { points: 30, durationSeconds: 15 * 60 },
  signInPerEmail: { points: 10, durationSeconds: 15 * 60 },
  signUpPerIp: { points: 10, durationSeconds: 60 * 60 },
  resetPerIp: { points: 10, durationSeconds: 60 * 60 },
  resetPerEmail: { points: 3, durationSeconds: 60 * 60 },
  newPasswordPerIp: { points: 10, durationSeconds: 15 * 60 },
  passwordCheckPerIp: { points: 30, durationSeconds: 15 * 60 },
  passwordCheckPerMember: { points: 10, durationSeconds: 15 * 60 },
  // Wrong BETA codes only (a right one is spent once anyway): guessing codes costs an hour per ten tries.
  wrongBetaCodePerMember: { points: 10, durationSeconds: 60 * 60 },
  // A member moves or corrects their place now and then; more often only serves probing distances (issue 26).
  locationChangePerMember: { points: LOCATION_CHANGES_PER_HOUR, durationSeconds: 60 * 60, counts: 'location changes' },
  // Every claim waits for a moderator: a day's few claims cover a member's names, more only floods the queue (issue 28).
  creatorClaimPerMember: { points: CREATOR_CLAIMS_PER_DAY, durationSeconds: 24 * 60 * 60, counts: 'creator claims' },
} satisfies Record<string, Limit>;

export type LimitName = keyof typeof AUTH_LIMITS;

const windowWords = (seconds: number) =>
  seconds === 3600
    ? 'an hour'
    : seconds === 86400
      ? 'a day'
      : seconds % 3600 === 0
        ? `${seconds / 3600} hours`
        : `${Math.round(seconds / 60)} minutes`;

/** The words of a 429: what ran out (when the limit names it) and how long to wait (hours from two hours on). */
export function refusalOf(limit: Limit, seconds: number): string {
  const wait =
    seconds >= 2 * 3600
      ? `${Math.ceil(seconds / 3600)} hours`
      : seconds >= 120
        ? `${Math.ceil(seconds / 60)} minutes`
        : `${seconds} seconds`;
  const what = limit.counts
    ? `Too many ${limit.counts}: at most ${limit.points} in ${windowWords(limit.durationSeconds)}.`
    : 'Too many attempts.';
  return `${what} Please try again in ${wait}.`;
}

/** In a cluster (WEB_CONCURRENCY > 1) without Redis, the primary process keeps the counts for every worker. */
export function keepClusterRateLimits(): void {
  new RateLimiterClusterMaster();
}

export class RateLimits {
  private readonly limiters: Record<LimitName, RateLimiterAbstract>;

  /** Counts in Redis when given (many machines), with the cluster's primary (many processes), else in memory. */
  constructor(redis?: Redis) {
    this.limiters = Object.fromEntries(
      Object.entries(AUTH_LIMITS).map(([name, limit]) => {
        const options = { keyPrefix: `rl:${name}`, points: limit.points, duration: limit.durationSeconds };
        if (redis) return [name, new RateLimiterRedis({ ...options, storeClient: redis })];
        return [name, cluster.isWorker ? new RateLimiterCluster(options) : new RateLimiterMemory(options)];
      }),
    ) as unknown as Record<LimitName, RateLimiterAbstract>;
  }

  /** Spends one point of each named limit; throws a 429 with a readable wait time when any is exhausted. */
  async consume(checks: [LimitName, string][]): Promise<void> {
    for (const [name, key] of checks) {
      try {
        await this.limiters[name].consume(key);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        throw tooMany(name, rejection);
      }
    }
  }

  /** Throws the 429 `consume` would once the limit is spent, without spending a point (for limits counting failures only). */
  async refuseWhenSpent(name: LimitName, key: string): Promise<void> {
    const state = await this.limiters[name].get(key);
    if (state && state.consumedPoints >= AUTH_LIMITS[name].points) throw tooMany(name, state);
  }
}

function tooMany(name: LimitName, state: RateLimiterRes): TooManyRequestsError {
  const seconds = Math.max(1, Math.ceil(state.msBeforeNext / 1000));
  return new TooManyRequestsError(refusalOf(AUTH_LIMITS[name], seconds), seconds);
}
