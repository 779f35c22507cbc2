import { BETA_CODE } from '../../shared/rules.js';
import type { ISubscription, SubscriptionStatus } from './payment.entity.js';

/** A single upload costs $4.00 and hosts the mix for 12 months (see mixes/mix-lifecycle.ts for the months) (docs/payments.md#prices). */
export const SINGLE_PURCHASE_CENTS = 400;
/** 70% of a subscription payment goes to music creators (docs/payments.md#prices). */
export const CREATOR_SHARE_PERCENT = 70;
/** Listens shorter than this earn nobody anything. */
export const MIN_REWARDED_LISTEN_SECONDS = 30;
/**
 * A renewing subscription's period ends before the provider tells us of the next one (Stripe bills at the period's
 * end, then retries a failed card for days and says so with events): it counts as active this long past its end.
 */
export const RENEWAL_LEEWAY_MS = 2 * 24 * 60 * 60 * 1000;

const LIVE_STATUSES: readonly SubscriptionStatus[] = ['active', 'trialing', 'past_due'];

/**
 * Records of the local test mode count only while the test mode is this server's provider: a server that moves to Stripe
 * (or runs without payments) gives fake subscriptions and purchases no hosting, no publishing and no rewards.
 */
export const countedProviderSql = (alias: string, testModeCounts: boolean) => (testModeCounts ? 'true' : `${alias}.provider <> 'test'`);

/** A subscription (its columns under `alias`) that still hosts mixes and publishes new ones; see paymentPolicy.isActive. */
export const activeSubscriptionSql = (alias: string, testModeCounts: boolean) =>
  `${countedProviderSql(alias, testModeCounts)} and ${alias}.status in (${LIVE_STATUSES.map((status) => `'${status}'`).join(', ')}) and ${alias}.ended_at is null
  and (${alias}.current_period_end is null or ${alias}.current_period_end > now() - interval '${RENEWAL_LEEWAY_MS / 1000} seconds')`;

export const paymentPolicy = {
  /**
   * The BETA code the app may show everyone: the well-known one, only while this server accepts it (codes an operator
   * hands out are never shown, and with codes off nothing is).
   */
  openBetaCode(betaCodes: readonly string[]): string | null {
    return betaCodes.includes(BETA_CODE.default) ? BETA_CODE.default : null;
  },

  /** activeSubscriptionSql, for a subscription in hand. */
  isActive(subscription: Pick<ISubscription, 'status' | 'endedAt' | 'currentPeriodEnd'>, now = new Date()): boolean {
    return (
      LIVE_STATUSES.includes(subscription.status) &&
      !subscription.endedAt &&
      (!subscription.currentPeriodEnd || subscription.currentPeriodEnd.getTime() > now.getTime() - RENEWAL_LEEWAY_MS)
    );
  },

  /** A subscriber's mixes stay up while a subscription is active and `graceDays` after the last one ends. */
  subscriptionHostingEnds(endedAt: Date, graceDays: number): Date {
    return new Date(endedAt.getTime() + graceDays * 24 * 60 * 60 * 1000);
  },

  /** A canceled subscription is final (the provider never revives one); every other status may still change. */
  isFinal(status: SubscriptionStatus): boolean {
    return status === 'canceled';
  },

  /**
   * The provider's word replaces ours only when it is at least as new as what we hold, so events that arrive out of
   * order never roll a subscription back; nothing revives a canceled one.
   */
  acceptsState(held: Pick<ISubscription, 'status' | 'stateAsOf'> | null, incomingAsOf: Date): boolean {
    if (!held) return true;
    if (paymentPolicy.isFinal(held.status)) return false;
    return incomingAsOf.getTime() >= held.stateAsOf.getTime();
  },

  /**
   * Paying $4.00 again adds 12 months to a published mix, except one an active subscription hosts with no end (it
   * needs none); an ended subscription's mixes, expiring after the grace period, may be renewed so.
   */
  canRenew(mix: { expiresAt: Date | null }, subscribed: boolean): boolean {
    return !(subscribed && mix.expiresAt === null);
  },

  /** The creators' share of a payment in whole cents: 70%, rounded half up (e.g. 999 -> 699, 5 -> 4, 1 -> 1). */
  creatorsShareCents(amountCents: number): number {
    return Math.floor((amountCents * CREATOR_SHARE_PERCENT + 50) / 100);
  },
};
