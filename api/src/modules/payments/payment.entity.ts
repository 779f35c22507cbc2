import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { BETA_CODE, TRACK_TITLE_MAX } from '../../shared/rules.js';
import { Mix } from '../mixes/mix.entity.js';
import { Track } from '../tracks/track.entity.js';
import { User } from '../users/user.entity.js';
import { Payout, PayoutAccount } from './payout.entity.js';

export const PAYMENT_KINDS = ['single', 'subscription'] as const;
export const PAYMENT_STATUSES = ['created', 'paid', 'canceled', 'failed'] as const;
export const PAYMENT_PROVIDERS = ['stripe', 'test'] as const;

/**
 * A checkout session with a payment provider (Stripe's, or the local test-mode one): `providerRef` is the session's
 * id. It becomes an entitlement only on the provider's verified word (a signed webhook or a session lookup).
 */
export const Payment = defineEntity({
  name: 'Payment',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    user: () => p.manyToOne(User).deleteRule('cascade').index('payment_user_idx'),
    mix: () => p.manyToOne(Mix).nullable().deleteRule('set null'),
    kind: p.enum(PAYMENT_KINDS),
    provider: p.string().length(20),
    providerRef: p.string().length(255).unique(),
    status: p.enum(PAYMENT_STATUSES).default('created'),
    amountCents: p.integer(),
    currency: p.string().length(3).default('usd'),
    /** Where the member pays (the provider's hosted page): an open session asked for again is answered with it. */
    checkoutUrl: p.string().length(2000).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    paidAt: p.datetime().nullable(),
  },
});
export type IPayment = InferEntity<typeof Payment>;

export const SUBSCRIPTION_STATUSES = ['incomplete', 'trialing', 'active', 'past_due', 'unpaid', 'paused', 'canceled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/**
 * A member's subscription as the provider last told us (Stripe's subscription object, or the test-mode one).
 * `stateAsOf` is when the provider produced the state we hold: an older event never overwrites a newer state.
 */
export const Subscription = defineEntity({
  name: 'Subscription',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    user: () => p.manyToOne(User).deleteRule('cascade').index('subscription_user_idx'),
    provider: p.string().length(20),
    providerRef: p.string().length(255).unique(),
    status: p.enum(SUBSCRIPTION_STATUSES),
    currentPeriodStart: p.datetime().nullable(),
    currentPeriodEnd: p.datetime().nullable(),
    cancelAtPeriodEnd: p.boolean().default(false),
    endedAt: p.datetime().nullable(),
    stateAsOf: p.datetime(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type ISubscription = InferEntity<typeof Subscription>;

/** One paid period of a subscription (a paid Stripe invoice, or a test-mode period): what creator rewards share out. */
export const SubscriptionPayment = defineEntity({
  name: 'SubscriptionPayment',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    subscription: () => p.manyToOne(Subscription).deleteRule('cascade').index('subscription_payment_subscription_idx'),
    providerRef: p.string().length(255).unique(),
    amountCents: p.integer(),
    currency: p.string().length(3).default('usd'),
    periodStart: p.datetime(),
    periodEnd: p.datetime(),
    paidAt: p.datetime(),
    /** When this payment's 70% was written to the rewards ledger (once its period is over); null until then. */
    rewardsSettledAt: p.datetime().nullable(),
  },
  indexes: [
    {
      name: 'subscription_payment_unsettled_idx',
      expression:
        'create index "subscription_payment_unsettled_idx" on "subscription_payment" ("period_end") where "rewards_settled_at" is null',
    },
  ],
});
export type ISubscriptionPayment = InferEntity<typeof SubscriptionPayment>;

/** A member's customer at the payment provider (what the billing portal opens for). */
export const PaymentCustomer = defineEntity({
  name: 'PaymentCustomer',
  properties: {
    user: () => p.oneToOne(User).primary().deleteRule('cascade'),
    provider: p.string().length(20),
    customerRef: p.string().length(255).unique(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

/** A provider event already handled: the same event id twice has one effect. */
export const PaymentEvent = defineEntity({
  name: 'PaymentEvent',
  properties: {
    id: p.string().length(255).primary(),
    type: p.string().length(100),
    receivedAt: p.datetime().onCreate(() => new Date()),
  },
});

/** The test-mode billing page's session: an unguessable id that opens one member's billing for an hour. */
export const TestPortalSession = defineEntity({
  name: 'TestPortalSession',
  properties: {
    id: p.string().length(64).primary(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    expiresAt: p.datetime(),
  },
});

export const ENTITLEMENT_SOURCES = ['code', 'single', 'subscription'] as const;
export type EntitlementSource = (typeof ENTITLEMENT_SOURCES)[number];

/**
 * Why a mix is hosted: a code or a single purchase (until validUntil), or a subscription (while it is active). A mix's
 * latest entitlement says how it is hosted now; a paid single purchase not yet used for publishing is one too.
 */
export const Entitlement = defineEntity({
  name: 'Entitlement',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    user: () => p.manyToOne(User).deleteRule('cascade').index('entitlement_user_idx'),
    mix: () => p.manyToOne(Mix).nullable().deleteRule('cascade').index('entitlement_mix_idx'),
    payment: () => p.manyToOne(Payment).nullable().deleteRule('set null').unique('entitlement_payment_unique'),
    subscription: () => p.manyToOne(Subscription).nullable().deleteRule('set null'),
    source: p.enum(ENTITLEMENT_SOURCES),
    code: p.string().length(BETA_CODE.maxLength).nullable(),
    validFrom: p.datetime(),
    validUntil: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IEntitlement = InferEntity<typeof Entitlement>;

/**
 * The creator rewards ledger: per settled subscription payment, the cents each music creator earned from that
 * subscriber's listening in the period, plus one line (creatorKey null) for what a subscriber who listened to
 * nothing paid into the pool. A payment's lines add up to exactly its creators' share.
 */
export const RewardAllocation = defineEntity({
  name: 'RewardAllocation',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    subscriptionPayment: () => p.manyToOne(SubscriptionPayment).deleteRule('cascade').index('reward_allocation_payment_idx'),
    /** The month (UTC, 'YYYY-MM') the paid period started in. */
    period: p.string().length(7),
    creatorKey: p.string().length(255).nullable(),
    creatorName: p.string().length(255).nullable(),
    amountCents: p.integer(),
    listenedSeconds: p.double().$type<number>().runtimeType('number').default(0),
    createdAt: p.datetime().onCreate(() => new Date()),
    /** The payout that paid this line to the creator's verified holder; null while it waits (docs/creators.md#payouts). */
    payout: () => p.manyToOne(Payout).nullable().deleteRule('restrict').index('reward_allocation_payout_idx'),
  },
  indexes: [{ name: 'reward_allocation_period_idx', properties: ['period', 'creatorKey'] }],
});

/**
 * A ledger line's tracks: the line's cents split over the tracks that earned them, written with the line at settlement
 * (docs/payments.md#per-track-lines). A line's tracks add up to exactly its amount. The title is the one the track had
 * then, so the line still reads the same if the track is renamed or removed.
 */
export const RewardAllocationTrack = defineEntity({
  name: 'RewardAllocationTrack',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    allocation: () => p.manyToOne(RewardAllocation).deleteRule('cascade').index('reward_allocation_track_allocation_idx'),
    track: () => p.manyToOne(Track).nullable().deleteRule('set null').index('reward_allocation_track_track_idx'),
    trackTitle: p.string().length(TRACK_TITLE_MAX),
    amountCents: p.integer(),
    listenedSeconds: p.double().$type<number>().runtimeType('number').default(0),
  },
});

export const paymentEntities = [
  Payment,
  Subscription,
  SubscriptionPayment,
  PaymentCustomer,
  PaymentEvent,
  TestPortalSession,
  Entitlement,
  RewardAllocation,
  RewardAllocationTrack,
  PayoutAccount,
  Payout,
];
