import type { EntityManager } from '@mikro-orm/postgresql';
import { parseInput } from '../../shared/inputs.js';
import { Mix, mixPolicy } from '../mixes/index.js';
import { User } from '../users/index.js';
import { type Fulfilment, fulfilCheckout } from './commands/fulfil-checkout.js';
import { activeSubscriptionOf } from './commands/hosting.js';
import { Payment, PaymentCustomer } from './payment.entity.js';
import { PaymentErrors } from './payment.errors.js';
import { sessionIdInput, singlePurchaseInput, subscriptionInput } from './payment.inputs.js';
import { paymentPolicy, SINGLE_PURCHASE_CENTS } from './payment.policy.js';
import type { PaymentsContext } from './payments-context.js';
import type { CheckoutFacts, CheckoutKind, SubscriptionFacts } from './providers/payment-provider.js';

/** How long an open checkout is handed out again rather than a new one made (Stripe's sessions last 24 hours). */
const REUSE_OPEN_CHECKOUT_MS = 60 * 60 * 1000;

interface CheckoutOrder {
  kind: CheckoutKind;
  mixId: string | null;
  amountCents: number;
  description: string;
  successPath: string;
  cancelPath: string;
}

/** Checkout sessions at the provider (a single purchase or the subscription), and their one fulfilment. */
export class CheckoutService {
  constructor(private readonly context: PaymentsContext) {}

  /** A checkout for one mix: 12 months of hosting for a draft, or 12 more for a published single-purchase mix. */
  async createSinglePurchaseSession(viewerId: string, rawMixId: unknown): Promise<{ redirect: string }> {
    const { mixId } = parseInput(singlePurchaseInput, { mixId: rawMixId });
    const em = this.context.em();
    const mix = mixId ? await em.findOne(Mix, mixId, { populate: ['owner'] }) : null;
    mixPolicy.assertCanChange(mix && { deactivated: mix.deactivatedAt != null, ownerId: mix.owner.id }, viewerId);
    const owned = mix as NonNullable<typeof mix>;
    const renewal = owned.status === 'published';
    if (
      renewal &&
      !paymentPolicy.canRenew(
        { expiresAt: owned.expiresAt ?? null },
        (await activeSubscriptionOf(em, viewerId, this.context.testMode)) !== null,
      )
    )
      throw PaymentErrors.notRenewable();
    const query = `mix_id=${owned.id}`;
    return this.checkout(em, viewerId, {
      kind: 'single',
      mixId: owned.id,
      amountCents: SINGLE_PURCHASE_CENTS,
      description: renewal ? `Renewal of “${owned.title}”: 12 more months of hosting` : `Upload of “${owned.title}”: 12 months of hosting`,
      successPath: `/upload/payment/success-purchase?session_id={CHECKOUT_SESSION_ID}&${query}`,
      cancelPath: `/upload/payment/canceled-purchase?${query}`,
    });
  }

  /** A checkout for the subscription; with the draft being uploaded, its id rides along to the success page. */
  async createSubscriptionSession(viewerId: string, rawMixId?: unknown): Promise<{ redirect: string }> {
    const { mixId } = parseInput(subscriptionInput, { mixId: rawMixId });
    const em = this.context.em();
    if (mixId !== undefined) {
      const mix = mixId ? await em.findOne(Mix, mixId, { populate: ['owner'] }) : null;
      mixPolicy.assertCanChange(mix && { deactivated: mix.deactivatedAt != null, ownerId: mix.owner.id }, viewerId);
    }
    if (await activeSubscriptionOf(em, viewerId, this.context.testMode)) throw PaymentErrors.alreadySubscribed();
    const query = mixId ? `&mix_id=${mixId}` : '';
    return this.checkout(em, viewerId, {
      kind: 'subscription',
      mixId: mixId ?? null,
      amountCents: this.context.config.SUBSCRIPTION_PRICE_CENTS,
      description: 'mixcrate subscription: unlimited uploads, 70% of the fee to the music creators you listen to',
      successPath: `/upload/payment/success-subscription?session_id={CHECKOUT_SESSION_ID}${query}`,
      cancelPath: `/upload/payment/canceled-subscription${mixId ? `?mix_id=${mixId}` : ''}`,
    });
  }

  /** The caller's checkout session, looked up at the provider and fulfilled when paid (see fulfil-checkout). */
  async confirm(viewerId: string, rawSessionId: unknown): Promise<Fulfilment> {
    const sessionId = parseInput(sessionIdInput, rawSessionId);
    const facts = await this.context.provider.lookupCheckout(sessionId);
    if (!facts) throw PaymentErrors.sessionNotFound();
    // Someone else's session reads as no session at all: its id tells nobody anything.
    if (facts.userId !== viewerId) throw PaymentErrors.sessionNotFound();
    return this.fulfil(facts);
  }

  /** Fulfils a session as the provider reports it; `subscription` given skips asking the provider for it. */
  async fulfil(facts: CheckoutFacts, subscription?: SubscriptionFacts | null): Promise<Fulfilment> {
    const { provider, config } = this.context;
    const subscriptionFacts =
      subscription !== undefined
        ? subscription
        : facts.subscriptionRef && facts.status === 'paid'
          ? await provider.retrieveSubscription(facts.subscriptionRef)
          : null;
    return this.context.transaction((em) =>
      fulfilCheckout(em, {
        provider: provider.name,
        facts,
        subscription: subscriptionFacts,
        graceDays: config.SUBSCRIPTION_GRACE_DAYS,
        prices: this.context.prices,
      }),
    );
  }

  private async checkout(em: EntityManager, viewerId: string, order: CheckoutOrder): Promise<{ redirect: string }> {
    const { provider, config } = this.context;
    // The same checkout asked for again within the hour (a double click, a reload) is the same session.
    const open = await em.findOne(
      Payment,
      {
        user: viewerId,
        kind: order.kind,
        mix: order.mixId,
        provider: provider.name,
        status: 'created',
        checkoutUrl: { $ne: null },
        createdAt: { $gt: new Date(Date.now() - REUSE_OPEN_CHECKOUT_MS) },
      },
      { orderBy: { createdAt: 'desc' } },
    );
    if (open?.checkoutUrl) return { redirect: open.checkoutUrl };
    const user = await em.findOneOrFail(User, viewerId);
    const customer = await em.findOne(PaymentCustomer, { user: viewerId, provider: provider.name });
    const session = await provider.createCheckout({
      kind: order.kind,
      userId: viewerId,
      email: user.email,
      mixId: order.mixId,
      customerRef: customer?.customerRef ?? null,
      amountCents: order.amountCents,
      description: order.description,
      successUrl: `${config.PUBLIC_URL}${order.successPath}`,
      cancelUrl: `${config.PUBLIC_URL}${order.cancelPath}`,
    });
    em.create(Payment, {
      user: viewerId,
      mix: order.mixId,
      kind: order.kind,
      provider: provider.name,
      providerRef: session.sessionId,
      amountCents: order.amountCents,
      checkoutUrl: session.url,
    });
    await em.flush();
    return { redirect: session.url };
  }
}
