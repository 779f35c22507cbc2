import type { EntityManager } from '@mikro-orm/postgresql';
import Stripe from 'stripe';
import { applySubscription, recordPaidPeriod } from './commands/apply-subscription.js';
import { fulfilCheckout } from './commands/fulfil-checkout.js';
import { PaymentEvent } from './payment.entity.js';
import { PaymentErrors } from './payment.errors.js';
import type { PaymentsContext } from './payments-context.js';
import type { PayoutsService } from './payouts.service.js';
import { checkoutFacts, paidPeriodOf, payoutAccountStatus } from './providers/stripe-provider.js';

export interface WebhookOutcome {
  received: true;
  duplicate: boolean;
}

/** Stripe's webhook: what each event changes, once. */
export class WebhooksService {
  constructor(
    private readonly context: PaymentsContext,
    private readonly payouts: PayoutsService,
  ) {}

  /**
   * A Stripe webhook: the signature is checked on the raw body (a mismatch, or no STRIPE_WEBHOOK_SECRET, is a 400 and
   * changes nothing); each event id has one effect (recorded in the effect's own transaction); events may come in any
   * order (fulfilment is idempotent, a subscription only moves to newer states, paid periods are kept once each).
   */
  async handle(rawBody: unknown, signature: unknown): Promise<WebhookOutcome> {
    const secret = this.context.config.STRIPE_WEBHOOK_SECRET;
    if (!secret) throw PaymentErrors.signatureMissing();
    if (!Buffer.isBuffer(rawBody) || typeof signature !== 'string') throw PaymentErrors.signatureInvalid();
    let event: Stripe.Event;
    try {
      event = Stripe.webhooks.constructEvent(rawBody, signature, secret);
    } catch {
      throw PaymentErrors.signatureInvalid();
    }
    if ((await this.context.em().count(PaymentEvent, { id: event.id })) > 0) return { received: true, duplicate: true };
    const apply = await this.prepareEvent(event);
    const handled = await this.context.transaction(async (em) => {
      const [inserted] = await em.execute<{ id: string }[]>(
        'insert into payment_event (id, type, received_at) values (?, ?, now()) on conflict do nothing returning id',
        [event.id, event.type.slice(0, 100)],
      );
      if (!inserted) return false;
      await apply(em);
      return true;
    });
    return { received: true, duplicate: !handled };
  }

  /** What an event does, with the provider looked up before the transaction opens. */
  private async prepareEvent(event: Stripe.Event): Promise<(em: EntityManager) => Promise<unknown>> {
    const nothing = async () => undefined;
    const stripe = this.context.stripe;
    if (!stripe) return nothing;
    const graceDays = this.context.config.SUBSCRIPTION_GRACE_DAYS;
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded':
      case 'checkout.session.expired': {
        const facts = checkoutFacts(event.data.object);
        const subscription =
          facts.subscriptionRef && facts.status === 'paid' ? await stripe.retrieveSubscription(facts.subscriptionRef) : null;
        const now = new Date();
        return (em) => fulfilCheckout(em, { provider: 'stripe', facts, subscription, graceDays, now, prices: this.context.prices });
      }
      case 'invoice.paid': {
        const period = paidPeriodOf(event.data.object, event.created);
        const subscription = period ? await stripe.retrieveSubscription(period.subscriptionRef) : null;
        const fetchedAt = new Date();
        if (!period || !subscription) return nothing;
        return async (em) => {
          const held = await applySubscription(em, 'stripe', subscription, fetchedAt, graceDays, period.userId);
          if (held) await recordPaidPeriod(em, held, period);
        };
      }
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted': {
        // The event says something changed; the subscription as Stripe holds it now says what, whatever order events
        // arrive in (an event's own copy may be older than one already applied).
        const facts = await stripe.retrieveSubscription(event.data.object.id);
        const fetchedAt = new Date();
        if (!facts) return nothing;
        return (em) => applySubscription(em, 'stripe', facts, fetchedAt, graceDays);
      }
      case 'account.updated': {
        // A creator's Connect account (docs/creators.md#payouts): whether Stripe lets it be paid now.
        const account = event.data.object;
        return (em) => this.payouts.applyAccountStatus(em, account.id, payoutAccountStatus(account));
      }
      default:
        return nothing;
    }
  }
}
