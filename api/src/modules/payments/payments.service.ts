import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import Stripe from 'stripe';
import type { Config } from '../../config.js';
import type { Orm } from '../../db/orm.js';
import { parseInput } from '../../shared/inputs.js';
import { Mix } from '../mixes/mix.entity.js';
import { mixPolicy } from '../mixes/mix.policy.js';
import { type MixView, mixViewOf } from '../mixes/mix.views.js';
import type { MixesService } from '../mixes/mixes.service.js';
import { User } from '../users/user.entity.js';
import { applySubscription, recordPaidPeriod } from './commands/apply-subscription.js';
import { type Fulfilment, fulfilCheckout } from './commands/fulfil-checkout.js';
import { activeSubscriptionOf } from './commands/hosting.js';
import { publishMix } from './commands/publish-mix.js';
import { periodOf } from './commands/settle-rewards.js';
import { sweepPayments } from './commands/sweep-payments.js';
import {
  type EntitlementSource,
  Payment,
  PaymentCustomer,
  PaymentEvent,
  Subscription,
  type SubscriptionStatus,
  TestPortalSession,
} from './payment.entity.js';
import { PaymentErrors } from './payment.errors.js';
import { earningsInput, periodInput, publishInput, sessionIdInput, singlePurchaseInput, subscriptionInput } from './payment.inputs.js';
import { paymentPolicy, SINGLE_PURCHASE_CENTS } from './payment.policy.js';
import type { CheckoutFacts, CheckoutKind, PaymentProvider, SubscriptionFacts } from './providers/payment-provider.js';
import { checkoutFacts, paidPeriodOf, StripeProvider } from './providers/stripe-provider.js';
import { TestModeProvider, testCustomerRefOf, testSubscriptionRefOf } from './providers/test-provider.js';

export interface SubscriptionView {
  status: SubscriptionStatus;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  endedAt: Date | null;
  active: boolean;
}

export interface HostedMixView {
  mix: MixView;
  hosting: EntitlementSource;
  canRenew: boolean;
}

export interface BillingView {
  testMode: boolean;
  subscribed: boolean;
  subscription: SubscriptionView | null;
  canOpenPortal: boolean;
  singlePurchaseCents: number;
  subscriptionCents: number;
  graceDays: number;
  mixes: HostedMixView[];
}

export interface CreatorEarningView {
  creatorKey: string;
  creatorName: string;
  amountCents: number;
  listenedSeconds: number;
  subscribers: number;
}

export interface EarningsView {
  period: string;
  paidCents: number;
  creatorsCents: number;
  unallocatedCents: number;
  creatorCount: number;
  creators: CreatorEarningView[];
}

/** What the test-mode checkout page shows. */
export interface TestCheckoutView {
  sessionId: string;
  kind: CheckoutKind;
  status: 'open' | 'paid' | 'expired';
  amountCents: number;
  mixTitle: string | null;
  renewal: boolean;
}

/** How long an open checkout is handed out again rather than a new one made (Stripe's sessions last 24 hours). */
const REUSE_OPEN_CHECKOUT_MS = 60 * 60 * 1000;

export interface WebhookOutcome {
  received: true;
  duplicate: boolean;
}

/**
 * Payments and publishing: checkout sessions (Stripe, or the local test mode), their one fulfilment, the webhook,
 * the billing portal, publishing on evidence, hosting that follows subscriptions, and the creator rewards ledger.
 */
export class PaymentsService {
  readonly provider: PaymentProvider;
  private readonly stripe: StripeProvider | null;
  private sweepTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly orm: Orm,
    private readonly config: Config,
    private readonly mixes: MixesService,
    private readonly log: FastifyBaseLogger,
  ) {
    this.stripe = config.STRIPE_SECRET_KEY
      ? new StripeProvider({ secretKey: config.STRIPE_SECRET_KEY, apiUrl: config.STRIPE_API_URL })
      : null;
    this.provider = this.stripe ?? new TestModeProvider(orm, config.PUBLIC_URL);
  }

  get testMode(): boolean {
    return this.provider.name === 'test';
  }

  private em(): EntityManager {
    return this.orm.em.fork() as EntityManager;
  }

  private transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.em().transactional((txEm) => work(txEm as EntityManager));
  }

  /**
   * See the `publish-mix` command. With a checkout `sessionId` (the success page's return) the session is looked up
   * and fulfilled first, so publishing need not wait for the webhook.
   */
  async publish(viewerId: string, raw: { mixId: unknown; code?: unknown; sessionId?: unknown }): Promise<MixView> {
    const input = parseInput(publishInput, raw);
    if (input.sessionId && input.code === null) {
      const fulfilment = await this.confirm(viewerId, input.sessionId);
      if (fulfilment.mixId && fulfilment.mixId !== input.mixId) throw PaymentErrors.sessionForAnotherMix();
    }
    const mix = await this.transaction((em) =>
      publishMix(em, { viewerId, mixId: input.mixId, code: input.code, betaCodes: this.config.BETA_CODES }),
    );
    return mixViewOf(mix);
  }

  /** The caller's checkout session, looked up at the provider and fulfilled when paid (see fulfil-checkout). */
  async confirm(viewerId: string, rawSessionId: unknown): Promise<Fulfilment> {
    const sessionId = parseInput(sessionIdInput, rawSessionId);
    const facts = await this.provider.lookupCheckout(sessionId);
    if (!facts) throw PaymentErrors.sessionNotFound();
    // Someone else's session reads as no session at all: its id tells nobody anything.
    if (facts.userId !== viewerId) throw PaymentErrors.sessionNotFound();
    return this.fulfil(facts);
  }

  private async fulfil(facts: CheckoutFacts, subscription?: SubscriptionFacts | null): Promise<Fulfilment> {
    const subscriptionFacts =
      subscription !== undefined
        ? subscription
        : facts.subscriptionRef && facts.status === 'paid'
          ? await this.provider.retrieveSubscription(facts.subscriptionRef)
          : null;
    return this.transaction((em) =>
      fulfilCheckout(em, {
        provider: this.provider.name,
        facts,
        subscription: subscriptionFacts,
        graceDays: this.config.SUBSCRIPTION_GRACE_DAYS,
      }),
    );
  }

  /** A checkout for one mix: 12 months of hosting for a draft, or 12 more for a published single-purchase mix. */
  async createSinglePurchaseSession(viewerId: string, rawMixId: unknown): Promise<{ redirect: string }> {
    const { mixId } = parseInput(singlePurchaseInput, { mixId: rawMixId });
    const em = this.em();
    const mix = mixId ? await em.findOne(Mix, mixId, { populate: ['owner'] }) : null;
    mixPolicy.assertCanChange(mix && { deactivated: mix.deactivatedAt != null, ownerId: mix.owner.id }, viewerId);
    const owned = mix as NonNullable<typeof mix>;
    const renewal = owned.status === 'published';
    if (renewal && !paymentPolicy.canRenew({ expiresAt: owned.expiresAt ?? null }, (await activeSubscriptionOf(em, viewerId)) !== null))
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
    const em = this.em();
    if (mixId !== undefined) {
      const mix = mixId ? await em.findOne(Mix, mixId, { populate: ['owner'] }) : null;
      mixPolicy.assertCanChange(mix && { deactivated: mix.deactivatedAt != null, ownerId: mix.owner.id }, viewerId);
    }
    if (await activeSubscriptionOf(em, viewerId)) throw PaymentErrors.alreadySubscribed();
    const query = mixId ? `&mix_id=${mixId}` : '';
    return this.checkout(em, viewerId, {
      kind: 'subscription',
      mixId: mixId ?? null,
      amountCents: this.config.SUBSCRIPTION_PRICE_CENTS,
      description: 'mixcrate subscription: unlimited uploads, 70% of the fee to the music creators you listen to',
      successPath: `/upload/payment/success-subscription?session_id={CHECKOUT_SESSION_ID}${query}`,
      cancelPath: `/upload/payment/canceled-subscription${mixId ? `?mix_id=${mixId}` : ''}`,
    });
  }

  private async checkout(
    em: EntityManager,
    viewerId: string,
    order: { kind: CheckoutKind; mixId: string | null; amountCents: number; description: string; successPath: string; cancelPath: string },
  ): Promise<{ redirect: string }> {
    // The same checkout asked for again within the hour (a double click, a reload) is the same session.
    const open = await em.findOne(
      Payment,
      {
        user: viewerId,
        kind: order.kind,
        mix: order.mixId,
        provider: this.provider.name,
        status: 'created',
        checkoutUrl: { $ne: null },
        createdAt: { $gt: new Date(Date.now() - REUSE_OPEN_CHECKOUT_MS) },
      },
      { orderBy: { createdAt: 'desc' } },
    );
    if (open?.checkoutUrl) return { redirect: open.checkoutUrl };
    const user = await em.findOneOrFail(User, viewerId);
    const customer = await em.findOne(PaymentCustomer, { user: viewerId, provider: this.provider.name });
    const session = await this.provider.createCheckout({
      kind: order.kind,
      userId: viewerId,
      email: user.email,
      mixId: order.mixId,
      customerRef: customer?.customerRef ?? null,
      amountCents: order.amountCents,
      description: order.description,
      successUrl: `${this.config.PUBLIC_URL}${order.successPath}`,
      cancelUrl: `${this.config.PUBLIC_URL}${order.cancelPath}`,
    });
    em.create(Payment, {
      user: viewerId,
      mix: order.mixId,
      kind: order.kind,
      provider: this.provider.name,
      providerRef: session.sessionId,
      amountCents: order.amountCents,
      checkoutUrl: session.url,
    });
    await em.flush();
    return { redirect: session.url };
  }

  /** The billing portal (Stripe's, or the test-mode billing page) for a member who has a customer; a 400 otherwise. */
  async createPortalSession(viewerId: string): Promise<{ redirect: string }> {
    const customer = await this.em().findOne(PaymentCustomer, { user: viewerId, provider: this.provider.name });
    if (!customer) throw PaymentErrors.noCustomer();
    return { redirect: await this.provider.createPortal(viewerId, customer.customerRef, `${this.config.PUBLIC_URL}/settings`) };
  }

  /**
   * A Stripe webhook: the signature is checked on the raw body (a mismatch, or no STRIPE_WEBHOOK_SECRET, is a 400 and
   * changes nothing); each event id has one effect (recorded in the effect's own transaction); events may come in any
   * order (fulfilment is idempotent, a subscription only moves to newer states, paid periods are kept once each).
   */
  async handleWebhook(rawBody: unknown, signature: unknown): Promise<WebhookOutcome> {
    const secret = this.config.STRIPE_WEBHOOK_SECRET;
    if (!secret) throw PaymentErrors.signatureMissing();
    if (!Buffer.isBuffer(rawBody) || typeof signature !== 'string') throw PaymentErrors.signatureInvalid();
    let event: Stripe.Event;
    try {
      event = Stripe.webhooks.constructEvent(rawBody, signature, secret);
    } catch {
      throw PaymentErrors.signatureInvalid();
    }
    if ((await this.em().count(PaymentEvent, { id: event.id })) > 0) return { received: true, duplicate: true };
    const apply = await this.prepareEvent(event);
    const handled = await this.transaction(async (em) => {
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
    if (!this.stripe) return nothing;
    const graceDays = this.config.SUBSCRIPTION_GRACE_DAYS;
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded':
      case 'checkout.session.expired': {
        const facts = checkoutFacts(event.data.object);
        const subscription =
          facts.subscriptionRef && facts.status === 'paid' ? await this.stripe.retrieveSubscription(facts.subscriptionRef) : null;
        const now = new Date();
        return (em) => fulfilCheckout(em, { provider: 'stripe', facts, subscription, graceDays, now });
      }
      case 'invoice.paid': {
        const period = paidPeriodOf(event.data.object, event.created);
        const subscription = period ? await this.stripe.retrieveSubscription(period.subscriptionRef) : null;
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
        const facts = await this.stripe.retrieveSubscription(event.data.object.id);
        const fetchedAt = new Date();
        if (!facts) return nothing;
        return (em) => applySubscription(em, 'stripe', facts, fetchedAt, graceDays);
      }
      default:
        return nothing;
    }
  }

  /** The test-mode checkout page's content; null for a session the test mode does not know. */
  async testCheckout(rawSessionId: unknown): Promise<TestCheckoutView | null> {
    const sessionId = sessionIdInput.safeParse(rawSessionId);
    if (!sessionId.success || !this.testMode) return null;
    const payment = await this.em().findOne(Payment, { providerRef: sessionId.data, provider: 'test' }, { populate: ['mix'] });
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
   * subscription starts a month-long period. Answers where the browser goes next (the SPEC's success page).
   */
  async payTestCheckout(rawSessionId: unknown): Promise<string> {
    const facts = await this.testFacts(rawSessionId);
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
    if (facts.status !== 'expired') await this.fulfil({ ...facts, status: 'paid' }, subscription);
    return this.returnUrl(facts, facts.status === 'expired' ? 'cancel' : 'success');
  }

  /** "Cancel": the session ends unpaid (a paid one stays paid); the browser goes to the SPEC's canceled page. */
  async cancelTestCheckout(rawSessionId: unknown): Promise<string> {
    const facts = await this.testFacts(rawSessionId);
    if (facts.status === 'open') await this.fulfil({ ...facts, status: 'expired' }, null);
    return this.returnUrl(facts, facts.status === 'paid' ? 'success' : 'cancel');
  }

  private async testFacts(rawSessionId: unknown): Promise<CheckoutFacts> {
    const sessionId = parseInput(sessionIdInput, rawSessionId);
    const facts = this.testMode ? await this.provider.lookupCheckout(sessionId) : null;
    if (!facts) throw PaymentErrors.sessionNotFound();
    return facts;
  }

  private returnUrl(facts: CheckoutFacts, to: 'success' | 'cancel'): string {
    const mix = facts.mixId ? `mix_id=${facts.mixId}` : '';
    const page = facts.kind === 'single' ? 'purchase' : 'subscription';
    if (to === 'cancel') return `${this.config.PUBLIC_URL}/upload/payment/canceled-${page}${mix ? `?${mix}` : ''}`;
    return `${this.config.PUBLIC_URL}/upload/payment/success-${page}?session_id=${facts.sessionId}${mix ? `&${mix}` : ''}`;
  }

  /** The member a live test-mode billing page is for; null when it expired or never was. */
  async testPortalMember(rawPortalId: unknown): Promise<string | null> {
    if (!this.testMode || typeof rawPortalId !== 'string' || !/^[0-9a-f]{48}$/.test(rawPortalId)) return null;
    const portal = await this.em().findOne(TestPortalSession, { id: rawPortalId, expiresAt: { $gt: new Date() } });
    return portal?.user.id ?? null;
  }

  /** The test-mode billing page's "Cancel subscription": the subscription ends at the end of its paid period. */
  async cancelTestSubscription(rawPortalId: unknown): Promise<void> {
    const userId = await this.testPortalMember(rawPortalId);
    if (!userId) throw PaymentErrors.portalNotFound();
    await this.transaction(async (em) => {
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

  /** The member's billing: plan, latest subscription, and their published mixes with how each is hosted. */
  async billing(viewerId: string): Promise<BillingView> {
    const em = this.em();
    const [latest, active, customer, hosted] = await Promise.all([
      em.findOne(Subscription, { user: viewerId }, { orderBy: { createdAt: 'desc' } }),
      activeSubscriptionOf(em, viewerId),
      em.count(PaymentCustomer, { user: viewerId, provider: this.provider.name }),
      em.execute<{ id: string; source: EntitlementSource | null }[]>(
        `select m.id, (select e.source from entitlement e where e.mix_id = m.id order by e.created_at desc limit 1) as source
           from mix m where m.owner_id = ? and m.status = 'published' and m.deactivated_at is null
          order by m.expires_at asc nulls last, m.published_at desc limit 500`,
        [viewerId],
      ),
    ]);
    const views = await this.mixes.viewsByIds(
      em,
      hosted.map((row) => row.id),
    );
    const mixes = hosted.flatMap((row) => {
      const mix = views.get(row.id);
      if (!mix) return [];
      const hosting = row.source ?? 'code';
      return [{ mix, hosting, canRenew: paymentPolicy.canRenew(mix, active !== null) }];
    });
    return {
      testMode: this.testMode,
      subscribed: active !== null,
      subscription: latest
        ? {
            status: latest.status,
            currentPeriodEnd: latest.currentPeriodEnd ?? null,
            cancelAtPeriodEnd: latest.cancelAtPeriodEnd,
            endedAt: latest.endedAt ?? null,
            active: paymentPolicy.isActive(latest),
          }
        : null,
      canOpenPortal: customer > 0,
      singlePurchaseCents: SINGLE_PURCHASE_CENTS,
      subscriptionCents: this.config.SUBSCRIPTION_PRICE_CENTS,
      graceDays: this.config.SUBSCRIPTION_GRACE_DAYS,
      mixes,
    };
  }

  /** The periods the rewards ledger has lines for, newest first. */
  async earningsPeriods(): Promise<string[]> {
    const rows = await this.em().execute<{ period: string }[]>(
      'select distinct period from reward_allocation order by period desc limit 240',
    );
    return rows.map((row) => row.period);
  }

  /** The creators' earnings in a period (optionally one creator, by key or name), largest first, with the period's totals. */
  earnings(raw: { period: unknown; creator?: unknown; first?: unknown }): Promise<EarningsView> {
    const input = parseInput(earningsInput, { ...raw, first: raw.first ?? undefined });
    return this.report(input.period, input.creator, input.first);
  }

  private async report(period: string, creator: string | null, limit: number | null): Promise<EarningsView> {
    const input = { period, creator };
    const em = this.em();
    const [totals] = await em.execute<{ paid: string | null; creators: string | null; unallocated: string | null }[]>(
      `select (select sum(p.amount_cents) from subscription_payment p
                where p.rewards_settled_at is not null and to_char(p.period_start at time zone 'UTC', 'YYYY-MM') = ?) as paid,
              sum(amount_cents) as creators,
              sum(amount_cents) filter (where creator_key is null) as unallocated
         from reward_allocation where period = ?`,
      [input.period, input.period],
    );
    const filter = input.creator ? 'and (a.creator_key = ? or lower(a.creator_name) = lower(?))' : '';
    const rows = await em.execute<
      { creator_key: string; creator_name: string; cents: string; seconds: number; subscribers: string; total: string }[]
    >(
      `select a.creator_key, max(a.creator_name) as creator_name, sum(a.amount_cents) as cents, sum(a.listened_seconds) as seconds,
              count(distinct s.user_id) as subscribers, count(*) over () as total
         from reward_allocation a
         join subscription_payment p on p.id = a.subscription_payment_id
         join subscription s on s.id = p.subscription_id
        where a.period = ? and a.creator_key is not null ${filter}
        group by a.creator_key
        order by cents desc, a.creator_key
        ${limit === null ? '' : 'limit ?'}`,
      [input.period, ...(input.creator ? [input.creator, input.creator] : []), ...(limit === null ? [] : [limit])],
    );
    return {
      period: input.period,
      paidCents: Number(totals?.paid ?? 0),
      creatorsCents: Number(totals?.creators ?? 0),
      unallocatedCents: Number(totals?.unallocated ?? 0),
      creatorCount: Number(rows[0]?.total ?? 0),
      creators: rows.map((row) => ({
        creatorKey: row.creator_key,
        creatorName: row.creator_name,
        amountCents: Number(row.cents),
        listenedSeconds: Math.round(Number(row.seconds) * 1000) / 1000,
        subscribers: Number(row.subscribers),
      })),
    };
  }

  /** The period's ledger as CSV: one row per creator, then the unallocated row; the amounts add up to the creators' share. */
  async earningsCsv(rawPeriod: unknown): Promise<string> {
    const period = parseInput(periodInput, rawPeriod);
    const report = await this.report(period, null, null);
    const lines = [['period', 'creator_key', 'creator_name', 'amount_cents', 'listened_seconds', 'subscribers']];
    for (const creator of report.creators)
      lines.push([
        period,
        creator.creatorKey,
        creator.creatorName,
        String(creator.amountCents),
        String(creator.listenedSeconds),
        String(creator.subscribers),
      ]);
    lines.push([
      period,
      '',
      '(unallocated: subscribers who listened to nothing; kept by mixcrate)',
      String(report.unallocatedCents),
      '0',
      '',
    ]);
    return `${lines.map((line) => line.map(csvField).join(',')).join('\r\n')}\r\n`;
  }

  /** Runs the payments sweep (see sweep-payments) now; the timer runs it every PAYMENTS_SWEEP_SECONDS. */
  sweep(): Promise<{ settled: number }> {
    return sweepPayments(this.orm, this.config.SUBSCRIPTION_GRACE_DAYS);
  }

  startSweeping(): void {
    if (this.sweepTimer) return;
    this.sweepTimer = setInterval(() => {
      this.sweep().catch((error) => this.log.error({ err: error }, 'payments sweep failed'));
    }, this.config.PAYMENTS_SWEEP_SECONDS * 1000);
    this.sweepTimer.unref();
  }

  close(): void {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
  }
}

/** RFC 4180 quoting; a field a spreadsheet would run as a formula (=, +, -, @ first) is prefixed with an apostrophe. */
function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export { periodOf };
