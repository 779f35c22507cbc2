import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { User } from '../users/user.entity.js';

export const PAYOUT_ACCOUNT_STATUSES = ['onboarding', 'enabled', 'restricted'] as const;
export type PayoutAccountStatus = (typeof PAYOUT_ACCOUNT_STATUSES)[number];
export const PAYOUT_STATUSES = ['pending', 'paid', 'failed'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/**
 * Where a verified creator is paid (docs/creators.md#payouts): a Stripe Connect Express account, or the local test
 * mode's stand-in. Its status is the provider's word (Stripe's `account.updated` webhook).
 */
export const PayoutAccount = defineEntity({
  name: 'PayoutAccount',
  properties: {
    user: () => p.oneToOne(User).primary().deleteRule('cascade'),
    provider: p.string().length(20),
    accountRef: p.string().length(255).unique(),
    status: p.enum(PAYOUT_ACCOUNT_STATUSES).default('onboarding'),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IPayoutAccount = InferEntity<typeof PayoutAccount>;

/**
 * One creator's payout of one period: one transfer, with one idempotency key (`payout-{user}-{period}`), so a retry
 * after a crash or a failure never pays twice. The ledger lines it pays name it (reward_allocation.payout_id).
 */
export const Payout = defineEntity({
  name: 'Payout',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    /** Kept when the member is removed (set null): the lines it paid stay paid, never paid again. */
    user: () => p.manyToOne(User).nullable().deleteRule('set null'),
    /** The month (UTC, 'YYYY-MM') the payout job ran for. */
    period: p.string().length(7),
    amountCents: p.integer(),
    provider: p.string().length(20),
    accountRef: p.string().length(255),
    idempotencyKey: p.string().length(120).unique(),
    status: p.enum(PAYOUT_STATUSES).default('pending'),
    transferRef: p.string().length(255).nullable(),
    attempts: p.integer().default(0),
    lastError: p.text().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    paidAt: p.datetime().nullable(),
  },
  uniques: [{ name: 'payout_user_period_unique', properties: ['user', 'period'] }],
});
export type IPayout = InferEntity<typeof Payout>;
