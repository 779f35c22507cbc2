import { LockMode } from '@mikro-orm/core';
import { parseInput } from '../../shared/inputs.js';
import type { CheckoutService } from './checkout.service.js';
import { Payment, Subscription, TestPortalSession } from './payment.entity.js';
import { PaymentErrors } from './payment.errors.js';
import { sessionIdInput } from './payment.inputs.js';
import type { PaymentsContext } from './payments-context.js';
import type { CheckoutFacts, CheckoutKind, SubscriptionFacts } from './providers/payment-provider.js';
import { testCustomerRefOf, testSubscriptionRefOf } from './providers/test-provider.js';

/** What the test-mode checkout page shows. */
export interface TestCheckoutView {
  sessionId: string;
  kind: CheckoutKind;
  status: 'open' | 'paid' | 'expired';
  amountCents: number;
  mixTitle: string | null;
  renewal: boolean;
}

/**
 * The test mode's stand-ins for Stripe's hosted pages (no STRIPE_SECRET_KEY): its checkout page, paying or canceling
 * there (the same fulfilment a webhook runs), and its billing page. With Stripe configured, none of it answers.
 */
export class TestModeService {
  constructor(
    private readonly context: PaymentsContext,
    private readonly checkouts: CheckoutService,
  ) {}

  /** The test-mode checkout page's content; null for a session the test mode does not know. */
  async checkout(rawSessionId: unknown): Promise<TestCheckoutView | null> {
    const sessionId = sessionIdInput.safeParse(rawSessionId);
    if (!sessionId.success || !this.context.testMode) return null;
    const payment = await this.context.em().findOne(Payment, { providerRef: sessionId.data, provider: 'test' }, { populate: ['mix'] });
    if (!payment) return null;
    return {
      sessionId: sessionId.data,
      kind: payment.kind,
      status: payment.status === 'paid' ? 'paid' : payment.status === 'created' ? 'open' : 'expired',
      amountCents: payment.amountCents,
      mixTitle: payment.mix?.title ?? null,
      renewal: payment.kind === 'single' && payment.mix?.status === 'published' && payment.status === 'created',
    };
  }

  /**
   * "Pay (test mode)": the test mode's provider takes the money and runs the same fulfilment as a webhook would; a
   * subscription starts a month-long period. Answers where the browser goes next (the documented success page).
   */
  async pay(rawSessionId: unknown): Promise<string> {
    const facts = await this.facts(rawSessionId);
    const now = new Date();
    const month = new Date(now);
    month.setUTCMonth(month.getUTCMonth() + 1);
    const subscription: SubscriptionFacts | null =
      facts.kind === 'subscription' && facts.userId
        ? {
            ref: testSubscriptionRefOf(facts.sessionId),
            userId: facts.userId,
            customerRef: testCustomerRefOf(facts.userId),
            status: 'active',
            currentPeriodStart: now,
            currentPeriodEnd: month,
            cancelAtPeriodEnd: false,
            endedAt: null,
          }
        : null;
    if (facts.status !== 'expired') await this.checkouts.fulfil({ ...facts, status: 'paid' }, subscription);
    return this.returnUrl(facts, facts.status === 'expired' ? 'cancel' : 'success');
  }

  /** "Cancel": the session ends unpaid (a paid one stays paid); the browser goes to the documented canceled page. */
  async cancel(rawSessionId: unknown): Promise<string> {
    const facts = await this.facts(rawSessionId);
    if (facts.status === 'open') await this.checkouts.fulfil({ ...facts, status: 'expired' }, null);
    return this.returnUrl(facts, facts.status === 'paid' ? 'success' : 'cancel');
  }

  /** The member a live test-mode billing page is for; null when it expired or never was. */
  async portalMember(rawPortalId: unknown): Promise<string | null> {
    if (!this.context.testMode || typeof rawPortalId !== 'string' || !/^[0-9a-f]{48}$/.test(rawPortalId)) return null;
    const portal = await this.context.em().findOne(TestPortalSession, { id: rawPortalId, expiresAt: { $gt: new Date() } });
    return portal?.user.id ?? null;
  }

  /** The test-mode billing page's "Cancel subscription": the subscription ends at the end of its paid period. */
  async cancelSubscription(rawPortalId: unknown): Promise<void> {
    const userId = await this.portalMember(rawPortalId);
    if (!userId) throw PaymentErrors.portalNotFound();
    await this.context.transaction(async (em) => {
      const live = await em.find(
        Subscription,
        { user: userId, provider: 'test', status: { $in: ['active', 'trialing', 'past_due'] } },
        {
          lockMode: LockMode.PESSIMISTIC_WRITE,
        },
      );
      for (const subscription of live) {
        subscription.cancelAtPeriodEnd = true;
        subscription.stateAsOf = new Date();
      }
      await em.flush();
    });
  }

  private async facts(rawSessionId: unknown): Promise<CheckoutFacts> {
    const sessionId = parseInput(sessionIdInput, rawSessionId);
    const facts = this.context.testMode ? await this.context.provider.lookupCheckout(sessionId) : null;
    if (!facts) throw PaymentErrors.sessionNotFound();
    return facts;
  }

  private returnUrl(facts: CheckoutFacts, to: 'success' | 'cancel'): string {
    const publicUrl = this.context.config.PUBLIC_URL;
    const mix = facts.mixId ? `mix_id=${facts.mixId}` : '';
    const page = facts.kind === 'single' ? 'purchase' : 'subscription';
    if (to === 'cancel') return `${publicUrl}/upload/payment/canceled-${page}${mix ? `?${mix}` : ''}`;
    return `${publicUrl}/upload/payment/success-${page}?session_id=${facts.sessionId}${mix ? `&${mix}` : ''}`;
  }
}
