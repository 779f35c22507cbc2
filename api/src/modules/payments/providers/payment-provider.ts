import type { SubscriptionStatus } from '../payment.entity.js';

export type CheckoutKind = 'single' | 'subscription';

export interface NewCheckout {
  kind: CheckoutKind;
  userId: string;
  email: string;
  mixId: string | null;
  /** The member's customer at the provider, when they have one (else the provider makes one). */
  customerRef: string | null;
  amountCents: number;
  /** What the checkout page says is bought. */
  description: string;
  successUrl: string;
  cancelUrl: string;
}

/** A subscription as the provider holds it. */
export interface SubscriptionFacts {
  ref: string;
  userId: string | null;
  customerRef: string | null;
  status: SubscriptionStatus;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  endedAt: Date | null;
}

/** A checkout session as the provider holds it: the only evidence of a payment this server believes. */
export interface CheckoutFacts {
  sessionId: string;
  kind: CheckoutKind;
  /** paid: the money is in (or, for a subscription, the subscription started); open: not yet; expired: never will be. */
  status: 'open' | 'paid' | 'expired';
  userId: string | null;
  mixId: string | null;
  customerRef: string | null;
  amountCents: number;
  currency: string;
  subscriptionRef: string | null;
}

/** A paid period of a subscription (a paid invoice). */
export interface PaidPeriod {
  ref: string;
  subscriptionRef: string;
  userId: string | null;
  amountCents: number;
  currency: string;
  periodStart: Date;
  periodEnd: Date;
  paidAt: Date;
}

/** What the payments domain asks of a provider; Stripe's SDK behind one, the local test mode behind the other. */
export interface PaymentProvider {
  readonly name: 'stripe' | 'test';
  createCheckout(checkout: NewCheckout): Promise<{ sessionId: string; url: string }>;
  /** The session as the provider holds it now; null when the provider knows no such session. */
  lookupCheckout(sessionId: string): Promise<CheckoutFacts | null>;
  retrieveSubscription(ref: string): Promise<SubscriptionFacts | null>;
  createPortal(userId: string, customerRef: string, returnUrl: string): Promise<string>;
}
