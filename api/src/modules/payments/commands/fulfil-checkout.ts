import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { isUuid } from '../../../shared/cursor.js';
import { Mix, tracklistVersionInForce } from '../../mixes/index.js';
import { Entitlement, type IPayment, Payment } from '../payment.entity.js';
import type { CheckoutFacts, SubscriptionFacts } from '../providers/payment-provider.js';
import { applySubscription, recordPaidPeriod, rememberCustomer } from './apply-subscription.js';
import { activeSubscriptionOf, type Evidence, hasTracklist, hostMix, unusedPurchase } from './hosting.js';

export interface Fulfilment {
  sessionId: string;
  status: CheckoutFacts['status'];
  kind: CheckoutFacts['kind'];
  userId: string | null;
  mixId: string | null;
  /** Whether the session's mix is published now. */
  published: boolean;
}

export interface FulfilCheckout {
  provider: string;
  facts: CheckoutFacts;
  /** For a subscription checkout: the subscription as the provider holds it (looked up before the transaction). */
  subscription: SubscriptionFacts | null;
  graceDays: number;
  /** What this server asks for each kind of checkout, in cents (USD): a session that paid anything else is refused. */
  prices: Record<CheckoutFacts['kind'], number>;
  /** When the facts were looked up (the subscription's state is as of then). */
  now?: Date;
}

/**
 * The one fulfilment of a checkout session, used by the webhook, by the success page's return (a session lookup) and
 * by the test-mode checkout's Pay button, as Stripe's fulfilment guide advises. Runs in the caller's transaction; the
 * session's payment row is locked, so the same session fulfilled twice or at once has one effect: the payment is
 * marked paid once, a single purchase makes one entitlement (unique per payment), a subscription is taken on. The
 * session's mix, when it names a draft with its tracklist, is published at once (a paid-for published mix is renewed).
 * A paid session whose kind, amount or currency is not what this server asked for (a session made elsewhere on the
 * same account, a price edited at the provider) fulfils nothing: its payment is marked failed.
 */
export async function fulfilCheckout(em: EntityManager, command: FulfilCheckout): Promise<Fulfilment> {
  const { facts } = command;
  const now = command.now ?? new Date();
  const payment = await lockedPayment(em, command.provider, facts);
  const outcome = (published: boolean): Fulfilment => ({
    sessionId: facts.sessionId,
    status: payment?.status === 'paid' ? 'paid' : facts.status,
    kind: facts.kind,
    userId: payment?.user.id ?? null,
    mixId: payment?.mix?.id ?? null,
    published,
  });
  if (!payment) return outcome(false);
  if (facts.status === 'expired' && payment.status === 'created') {
    payment.status = 'canceled';
    await em.flush();
  }
  if (facts.status !== 'paid' || payment.status === 'paid') return outcome(await isPublished(em, payment.mix?.id ?? null));
  if (!paidAsAsked(facts, payment, command.prices)) {
    payment.status = 'failed';
    await em.flush();
    return { ...outcome(false), status: 'expired' };
  }

  payment.status = 'paid';
  payment.paidAt = now;
  await em.flush();
  await rememberCustomer(em, payment.user.id, command.provider, facts.customerRef);

  if (facts.kind === 'single') {
    em.create(Entitlement, { user: payment.user, mix: payment.mix ?? null, payment, source: 'single', validFrom: now, validUntil: null });
    await em.flush();
  } else if (command.subscription) {
    const subscription = await applySubscription(em, command.provider, command.subscription, now, command.graceDays, payment.user.id);
    const { currentPeriodStart, currentPeriodEnd } = command.subscription;
    // The test mode has no invoices: its first paid period is the checkout's.
    if (subscription && command.provider === 'test' && currentPeriodStart && currentPeriodEnd)
      await recordPaidPeriod(em, subscription, {
        ref: `${facts.sessionId}_first`,
        subscriptionRef: subscription.providerRef,
        userId: payment.user.id,
        amountCents: payment.amountCents,
        currency: payment.currency,
        periodStart: currentPeriodStart,
        periodEnd: currentPeriodEnd,
        paidAt: now,
      });
  }
  const published = payment.mix ? await hostPaidMix(em, payment, now, command.provider === 'test') : false;
  return outcome(published);
}

/** The session paid what this server asked for: the same kind, the price of that kind (as recorded, when it is), in USD. */
function paidAsAsked(facts: CheckoutFacts, payment: IPayment, prices: FulfilCheckout['prices']): boolean {
  return (
    facts.kind === payment.kind &&
    facts.currency.toLowerCase() === 'usd' &&
    facts.amountCents === prices[facts.kind] &&
    facts.amountCents === payment.amountCents
  );
}

/** The session's payment row, locked; made from the provider's facts when a session we did not record is for a member we know. */
async function lockedPayment(em: EntityManager, provider: string, facts: CheckoutFacts): Promise<IPayment | null> {
  const find = () =>
    em.findOne(
      Payment,
      { providerRef: facts.sessionId },
      { populate: ['user', 'mix'], lockMode: LockMode.PESSIMISTIC_WRITE, lockTableAliases: ['p0'] },
    );
  const found = await find();
  if (found || !isUuid(facts.userId)) return found;
  const mixId = isUuid(facts.mixId) ? facts.mixId : null;
  await em.execute(
    `insert into payment (id, user_id, mix_id, kind, provider, provider_ref, status, amount_cents, currency, created_at)
     select gen_random_uuid(), u.id, (select id from mix where id = ? and owner_id = u.id), ?, ?, ?, 'created', ?, ?, now()
       from app_user u where u.id = ?
     on conflict (provider_ref) do nothing`,
    [mixId, facts.kind, provider, facts.sessionId, facts.amountCents, facts.currency.slice(0, 3), facts.userId],
  );
  return find();
}

async function isPublished(em: EntityManager, mixId: string | null): Promise<boolean> {
  if (!mixId) return false;
  const [row] = await em.execute<{ status: string }[]>('select status from mix where id = ?', [mixId]);
  return row?.status === 'published';
}

/** Publishes (or renews) the paid-for mix when it can be: its owner's, not deleted, with its tracklist. */
async function hostPaidMix(em: EntityManager, payment: IPayment, now: Date, testModeCounts: boolean): Promise<boolean> {
  const mix = await em.findOne(Mix, payment.mix?.id ?? '', {
    populate: ['owner'],
    lockMode: LockMode.PESSIMISTIC_WRITE,
    lockTableAliases: ['m0'],
  });
  if (!mix || mix.deactivatedAt || mix.owner.id !== payment.user.id) return false;
  let evidence: Evidence | null = null;
  if (payment.kind === 'single') {
    const purchase = await unusedPurchase(em, mix.id, testModeCounts);
    if (purchase && (mix.status === 'published' || (await hasTracklist(em, mix.id))))
      evidence = { source: 'single', entitlement: purchase };
  } else if (mix.status === 'draft' && (await hasTracklist(em, mix.id))) {
    const subscriptionId = await activeSubscriptionOf(em, payment.user.id, testModeCounts);
    if (subscriptionId) evidence = { source: 'subscription', subscriptionId };
  }
  if (evidence) {
    hostMix(em, mix, evidence, now);
    await em.flush();
    // The tracklist it is published with is its version 1 (docs/payments.md#tracklist-versions).
    await tracklistVersionInForce(em, mix.id);
  }
  return mix.status === 'published';
}
