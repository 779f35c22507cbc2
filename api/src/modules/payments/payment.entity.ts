import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Mix } from '../mixes/mix.entity.js';
import { User } from '../users/user.entity.js';

export const PAYMENT_KINDS = ['single', 'subscription'] as const;
export const PAYMENT_STATUSES = ['created', 'paid', 'canceled', 'failed'] as const;

/** A checkout with a payment provider; it becomes an entitlement only on the provider's verified word. */
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
    createdAt: p.datetime().onCreate(() => new Date()),
    paidAt: p.datetime().nullable(),
  },
});
export type IPayment = InferEntity<typeof Payment>;

export const ENTITLEMENT_SOURCES = ['code', 'single', 'subscription'] as const;

/** The right to publish: one mix (code or single purchase) or unlimited until validUntil (subscription). */
export const Entitlement = defineEntity({
  name: 'Entitlement',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    user: () => p.manyToOne(User).deleteRule('cascade').index('entitlement_user_idx'),
    mix: () => p.manyToOne(Mix).nullable().deleteRule('cascade'),
    payment: () => p.manyToOne(Payment).nullable().deleteRule('set null'),
    source: p.enum(ENTITLEMENT_SOURCES),
    code: p.string().length(64).nullable(),
    validFrom: p.datetime(),
    validUntil: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IEntitlement = InferEntity<typeof Entitlement>;
