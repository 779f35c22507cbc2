import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../../db/orm.js';
import { Payment, Subscription, TestPortalSession } from '../payment.entity.js';
import type { CheckoutFacts, NewCheckout, PaymentProvider, SubscriptionFacts } from './payment-provider.js';

const SESSION_PREFIX = 'cs_test_mixcrate_';
const SUBSCRIPTION_PREFIX = 'sub_test_mixcrate_';
const PORTAL_TTL_MS = 60 * 60 * 1000;

/** The test-mode subscription a test-mode subscription checkout starts (one per session, named after it). */
export const testSubscriptionRefOf = (sessionId: string) => sessionId.replace(SESSION_PREFIX, SUBSCRIPTION_PREFIX);
export const testCustomerRefOf = (userId: string) => `cus_test_mixcrate_${userId.replaceAll('-', '')}`;

/**
 * The local test mode (no STRIPE_SECRET_KEY): checkout and billing pages served by this app (modules/payments/
 * test-mode-pages.ts). The provider's records are our own rows: a session is its payment row, paid when the member
 * presses "Pay (test mode)"; a subscription runs month by month until canceled (the payments sweep renews it).
 */
export class TestModeProvider implements PaymentProvider {
  readonly name = 'test' as const;

  constructor(
    private readonly orm: Orm,
    private readonly publicUrl: string,
  ) {}

  private em(): EntityManager {
    return this.orm.em.fork() as EntityManager;
  }

  async createCheckout(_checkout: NewCheckout): Promise<{ sessionId: string; url: string }> {
    const sessionId = `${SESSION_PREFIX}${randomBytes(16).toString('hex')}`;
    return { sessionId, url: `${this.publicUrl}/test-mode/checkout/${sessionId}` };
  }

  async lookupCheckout(sessionId: string): Promise<CheckoutFacts | null> {
    if (!sessionId.startsWith(SESSION_PREFIX)) return null;
    const payment = await this.em().findOne(Payment, { providerRef: sessionId, provider: 'test' });
    if (!payment) return null;
    return {
      sessionId,
      kind: payment.kind,
      status: payment.status === 'paid' ? 'paid' : payment.status === 'created' ? 'open' : 'expired',
      userId: payment.user.id,
      mixId: payment.mix?.id ?? null,
      customerRef: testCustomerRefOf(payment.user.id),
      amountCents: payment.amountCents,
      currency: payment.currency,
      subscriptionRef: payment.kind === 'subscription' ? testSubscriptionRefOf(sessionId) : null,
    };
  }

  async retrieveSubscription(ref: string): Promise<SubscriptionFacts | null> {
    const subscription = await this.em().findOne(Subscription, { providerRef: ref, provider: 'test' });
    if (!subscription) return null;
    return {
      ref,
      userId: subscription.user.id,
      customerRef: testCustomerRefOf(subscription.user.id),
      status: subscription.status,
      currentPeriodStart: subscription.currentPeriodStart ?? null,
      currentPeriodEnd: subscription.currentPeriodEnd ?? null,
      cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
      endedAt: subscription.endedAt ?? null,
    };
  }

  async createPortal(userId: string, _customerRef: string, _returnUrl: string): Promise<string> {
    const em = this.em();
    const id = randomBytes(24).toString('hex');
    em.create(TestPortalSession, { id, user: userId, expiresAt: new Date(Date.now() + PORTAL_TTL_MS) });
    await em.flush();
    return `${this.publicUrl}/test-mode/billing/${id}`;
  }
}
