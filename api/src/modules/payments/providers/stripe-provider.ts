import Stripe from 'stripe';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../payment.entity.js';
import { PaymentErrors } from '../payment.errors.js';
import type { PayoutAccountStatus } from '../payout.entity.js';
import type { CheckoutFacts, NewCheckout, PaidPeriod, PaymentProvider, SubscriptionFacts } from './payment-provider.js';
import type { NewTransfer, PayoutProvider } from './payout-provider.js';

export interface StripeOptions {
  secretKey: string;
  /** Where the SDK sends requests (a stand-in in tests); Stripe's own API when absent. */
  apiUrl?: string;
}

const dateOf = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000) : null);
const refOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : (value?.id ?? null));
/** Metadata we wrote ourselves (the member, the mix); anything else reads as absent. */
const metadataId = (metadata: Stripe.Metadata | null | undefined, key: string) => {
  const value = metadata?.[key];
  return typeof value === 'string' && value.length > 0 && value.length <= 64 ? value : null;
};
const statusOf = (status: string): SubscriptionStatus =>
  (SUBSCRIPTION_STATUSES as readonly string[]).includes(status)
    ? (status as SubscriptionStatus)
    : status === 'incomplete_expired'
      ? 'canceled'
      : 'incomplete';

/** A Stripe subscription object as the facts the payments domain keeps. */
export function subscriptionFacts(subscription: Stripe.Subscription): SubscriptionFacts {
  const item = subscription.items?.data?.[0];
  return {
    ref: subscription.id,
    userId: metadataId(subscription.metadata, 'userId'),
    customerRef: refOf(subscription.customer),
    status: statusOf(subscription.status),
    currentPeriodStart: dateOf(item?.current_period_start),
    currentPeriodEnd: dateOf(item?.current_period_end),
    cancelAtPeriodEnd: subscription.cancel_at_period_end === true,
    endedAt: dateOf(subscription.ended_at),
  };
}

/** A Stripe Checkout session as the facts the payments domain keeps. */
export function checkoutFacts(session: Stripe.Checkout.Session): CheckoutFacts {
  const paid = session.status === 'complete' && (session.payment_status === 'paid' || session.payment_status === 'no_payment_required');
  return {
    sessionId: session.id,
    kind: session.mode === 'subscription' ? 'subscription' : 'single',
    status: paid ? 'paid' : session.status === 'expired' ? 'expired' : 'open',
    userId: metadataId(session.metadata, 'userId') ?? session.client_reference_id ?? null,
    mixId: metadataId(session.metadata, 'mixId'),
    customerRef: refOf(session.customer),
    amountCents: session.amount_total ?? 0,
    currency: session.currency ?? 'usd',
    subscriptionRef: refOf(session.subscription),
  };
}

/** A paid Stripe invoice of a subscription as a paid period; null for invoices of anything else. */
export function paidPeriodOf(invoice: Stripe.Invoice, eventCreated: number): PaidPeriod | null {
  const details = invoice.parent?.subscription_details;
  const subscriptionRef = refOf(details?.subscription);
  const line = invoice.lines?.data?.[0];
  if (!invoice.id || !subscriptionRef || !line) return null;
  return {
    ref: invoice.id,
    subscriptionRef,
    userId: metadataId(details?.metadata, 'userId'),
    amountCents: invoice.amount_paid,
    currency: invoice.currency,
    periodStart: new Date(line.period.start * 1000),
    periodEnd: new Date(line.period.end * 1000),
    paidAt: dateOf(invoice.status_transitions?.paid_at) ?? new Date(eventCreated * 1000),
  };
}

/** A Connect account's readiness: payouts enabled is the one word that lets transfers reach the creator. */
export function payoutAccountStatus(account: Pick<Stripe.Account, 'payouts_enabled' | 'details_submitted'>): PayoutAccountStatus {
  if (account.payouts_enabled) return 'enabled';
  return account.details_submitted ? 'restricted' : 'onboarding';
}

/** Stripe through its official SDK: Checkout for both purchases, the billing portal, lookups of sessions and subscriptions. */
export class StripeProvider implements PaymentProvider, PayoutProvider {
  readonly name = 'stripe' as const;
  readonly stripe: Stripe;

  constructor(options: StripeOptions) {
    const api = options.apiUrl ? new URL(options.apiUrl) : null;
    this.stripe = new Stripe(options.secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      telemetry: false,
      ...(api
        ? {
            host: api.hostname,
            port: api.port || (api.protocol === 'https:' ? 443 : 80),
            protocol: api.protocol === 'https:' ? 'https' : 'http',
          }
        : {}),
    });
  }

  async createCheckout(checkout: NewCheckout): Promise<{ sessionId: string; url: string }> {
    const metadata = { userId: checkout.userId, kind: checkout.kind, ...(checkout.mixId ? { mixId: checkout.mixId } : {}) };
    const customer = checkout.customerRef
      ? { customer: checkout.customerRef }
      : { customer_email: checkout.email, ...(checkout.kind === 'single' ? { customer_creation: 'always' as const } : {}) };
    const session = await this.call(() =>
      this.stripe.checkout.sessions.create({
        mode: checkout.kind === 'single' ? 'payment' : 'subscription',
        client_reference_id: checkout.userId,
        metadata,
        ...customer,
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: 'usd',
              unit_amount: checkout.amountCents,
              product_data: { name: checkout.description },
              ...(checkout.kind === 'subscription' ? { recurring: { interval: 'month' as const } } : {}),
            },
          },
        ],
        ...(checkout.kind === 'single' ? { payment_intent_data: { metadata } } : { subscription_data: { metadata } }),
        success_url: checkout.successUrl,
        cancel_url: checkout.cancelUrl,
      }),
    );
    if (!session.url) throw PaymentErrors.providerFailed();
    return { sessionId: session.id, url: session.url };
  }

  async lookupCheckout(sessionId: string): Promise<CheckoutFacts | null> {
    const session = await this.orNull(() => this.stripe.checkout.sessions.retrieve(sessionId));
    return session ? checkoutFacts(session) : null;
  }

  async retrieveSubscription(ref: string): Promise<SubscriptionFacts | null> {
    const subscription = await this.orNull(() => this.stripe.subscriptions.retrieve(ref));
    return subscription ? subscriptionFacts(subscription) : null;
  }

  async createPortal(_userId: string, customerRef: string, returnUrl: string): Promise<string> {
    const portal = await this.call(() => this.stripe.billingPortal.sessions.create({ customer: customerRef, return_url: returnUrl }));
    return portal.url;
  }

  /** A Stripe Connect Express account for a creator's payouts (docs/creators.md#payouts). */
  async createAccount(userId: string, email: string): Promise<{ accountRef: string; status: PayoutAccountStatus }> {
    const account = await this.call(() =>
      this.stripe.accounts.create({
        type: 'express',
        email,
        metadata: { userId },
        capabilities: { transfers: { requested: true } },
      }),
    );
    return { accountRef: account.id, status: payoutAccountStatus(account) };
  }

  /** Stripe's hosted Express onboarding for the account (a link works once, for a few minutes). */
  async onboardingLink(accountRef: string, returnUrl: string, refreshUrl: string): Promise<string> {
    const link = await this.call(() =>
      this.stripe.accountLinks.create({ account: accountRef, type: 'account_onboarding', return_url: returnUrl, refresh_url: refreshUrl }),
    );
    return link.url;
  }

  /** A transfer to the creator's account; Stripe makes one transfer per idempotency key however often it is asked. */
  async transfer(transfer: NewTransfer): Promise<{ transferRef: string }> {
    const made = await this.call(() =>
      this.stripe.transfers.create(
        {
          amount: transfer.amountCents,
          currency: 'usd',
          destination: transfer.accountRef,
          transfer_group: `payout-${transfer.period}`,
          metadata: { payoutId: transfer.payoutId, period: transfer.period },
        },
        { idempotencyKey: transfer.idempotencyKey },
      ),
    );
    return { transferRef: made.id };
  }

  /** A webhook's event, verified against the raw body and its signature (throws on a mismatch). */
  verifyEvent(rawBody: Buffer, signature: string, secret: string): Stripe.Event {
    return this.stripe.webhooks.constructEvent(rawBody, signature, secret);
  }

  private async call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      if (error instanceof Stripe.errors.StripeError) throw PaymentErrors.providerFailed();
      throw error;
    }
  }

  /** Stripe's 404 (no such session or subscription) as null; other refusals as a clear 400. */
  private async orNull<T>(request: () => Promise<T>): Promise<T | null> {
    try {
      return await request();
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
      if (error instanceof Stripe.errors.StripeError) throw PaymentErrors.providerFailed();
      throw error;
    }
  }
}
