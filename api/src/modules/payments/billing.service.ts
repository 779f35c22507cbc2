import { type MixesService, type MixView, PUBLISHED_ACTIVE_MIX_SQL } from '../mixes/index.js';
import { activeSubscriptionOf } from './commands/hosting.js';
import { type EntitlementSource, PaymentCustomer, Subscription, type SubscriptionStatus } from './payment.entity.js';
import { PaymentErrors } from './payment.errors.js';
import { paymentPolicy, SINGLE_PURCHASE_CENTS } from './payment.policy.js';
import type { PaymentsContext } from './payments-context.js';

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
  /** See paymentPolicy.openBetaCode. */
  openBetaCode: string | null;
  mixes: HostedMixView[];
}

/** A member's billing: their plan and hosted mixes, and the provider's portal to manage it. */
export class BillingService {
  constructor(
    private readonly context: PaymentsContext,
    private readonly mixes: MixesService,
  ) {}

  /** The member's billing: plan, latest subscription, and their published mixes with how each is hosted. */
  async of(viewerId: string): Promise<BillingView> {
    const { config, configured } = this.context;
    const em = this.context.em();
    const [latest, active, customer, hosted] = await Promise.all([
      em.findOne(Subscription, { user: viewerId }, { orderBy: { createdAt: 'desc' } }),
      activeSubscriptionOf(em, viewerId, this.context.testMode),
      configured ? em.count(PaymentCustomer, { user: viewerId, provider: configured.name }) : 0,
      em.execute<{ id: string; source: EntitlementSource | null }[]>(
        `select m.id, (select e.source from entitlement e where e.mix_id = m.id order by e.created_at desc limit 1) as source
           from mix m where m.owner_id = ? and ${PUBLISHED_ACTIVE_MIX_SQL}
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
      testMode: this.context.testMode,
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
      subscriptionCents: config.SUBSCRIPTION_PRICE_CENTS,
      graceDays: config.SUBSCRIPTION_GRACE_DAYS,
      openBetaCode: paymentPolicy.openBetaCode(config.BETA_CODES),
      mixes,
    };
  }

  /** The billing portal (Stripe's, or the test-mode billing page) for a member who has a customer; a 400 otherwise. */
  async createPortalSession(viewerId: string): Promise<{ redirect: string }> {
    const { config, provider } = this.context;
    const customer = await this.context.em().findOne(PaymentCustomer, { user: viewerId, provider: provider.name });
    if (!customer) throw PaymentErrors.noCustomer();
    return { redirect: await provider.createPortal(viewerId, customer.customerRef, `${config.PUBLIC_URL}/settings`) };
  }
}
