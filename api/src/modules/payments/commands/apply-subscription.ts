import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { isUuid } from '../../../shared/cursor.js';
import { type ISubscription, Subscription, SubscriptionPayment } from '../payment.entity.js';
import { paymentPolicy } from '../payment.policy.js';
import type { PaidPeriod, SubscriptionFacts } from '../providers/payment-provider.js';
import { syncSubscriptionHosting } from './hosting.js';

/** Remembers the member's customer at the provider (the billing portal opens for it); the first one stays. */
export async function rememberCustomer(em: EntityManager, userId: string, provider: string, customerRef: string | null): Promise<void> {
  if (!customerRef) return;
  await em.execute(
    `insert into payment_customer (user_id, provider, customer_ref, created_at) values (?, ?, ?, now())
     on conflict do nothing`,
    [userId, provider, customerRef],
  );
}

/**
 * Takes the provider's word on a subscription (from an event, a session's return or a lookup), as of `asOf`: created
 * when new (for a member we know), updated when the word is at least as new as what we hold and the subscription is
 * not already canceled, ignored otherwise. Then the member's subscription-hosted mixes follow. Its row is locked, so
 * two words about one subscription land one after the other. Returns the subscription, or null when it is not ours.
 */
export async function applySubscription(
  em: EntityManager,
  provider: string,
  facts: SubscriptionFacts,
  asOf: Date,
  graceDays: number,
  knownUserId: string | null = null,
): Promise<ISubscription | null> {
  const userId = [knownUserId, facts.userId].find(isUuid) ?? null;
  if (userId)
    await em.execute(
      `insert into subscription (id, user_id, provider, provider_ref, status, cancel_at_period_end, state_as_of, created_at)
     select gen_random_uuid(), u.id, ?, ?, 'incomplete', false, 'epoch', now() from app_user u where u.id = ?
     on conflict (provider_ref) do nothing`,
      [provider, facts.ref, userId],
    );
  const subscription = await em.findOne(Subscription, { providerRef: facts.ref }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!subscription) return null;
  if (paymentPolicy.acceptsState(subscription, asOf)) {
    subscription.status = facts.status;
    subscription.currentPeriodStart = facts.currentPeriodStart;
    subscription.currentPeriodEnd = facts.currentPeriodEnd;
    subscription.cancelAtPeriodEnd = facts.cancelAtPeriodEnd;
    subscription.endedAt = facts.endedAt ?? (facts.status === 'canceled' ? asOf : null);
    subscription.stateAsOf = asOf;
    await em.flush();
  }
  await rememberCustomer(em, subscription.user.id, provider, facts.customerRef);
  await syncSubscriptionHosting(em, subscription.user.id, graceDays, provider === 'test');
  return subscription;
}

/** Records a paid period of a subscription (once per provider reference); what creator rewards are shared out of. */
export async function recordPaidPeriod(em: EntityManager, subscription: ISubscription, period: PaidPeriod): Promise<void> {
  if (period.amountCents <= 0) return;
  const existing = await em.count(SubscriptionPayment, { providerRef: period.ref });
  if (existing > 0) return;
  await em.execute(
    `insert into subscription_payment (id, subscription_id, provider_ref, amount_cents, currency, period_start, period_end, paid_at)
     values (gen_random_uuid(), ?, ?, ?, ?, ?, ?, ?) on conflict (provider_ref) do nothing`,
    [subscription.id, period.ref, period.amountCents, period.currency, period.periodStart, period.periodEnd, period.paidAt],
  );
}
