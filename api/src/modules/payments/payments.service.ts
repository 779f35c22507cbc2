import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Orm } from '../../db/orm.js';
import { parseInput } from '../../shared/inputs.js';
import type { RateLimits } from '../auth/index.js';
import { type MixesService, type MixView, mixViewOf } from '../mixes/index.js';
import type { RolesService } from '../roles/index.js';
import { BillingService } from './billing.service.js';
import { CheckoutService } from './checkout.service.js';
import { publishMix } from './commands/publish-mix.js';
import { sweepPayments } from './commands/sweep-payments.js';
import { CreatorEarningsService } from './creator-earnings.service.js';
import { EarningsService } from './earnings.service.js';
import { PaymentErrors, WrongBetaCodeError } from './payment.errors.js';
import { publishInput } from './payment.inputs.js';
import { PaymentsContext } from './payments-context.js';
import { type CreatorHolders, PayoutsService } from './payouts.service.js';
import { TestModeService } from './test-mode.service.js';
import { WebhooksService } from './webhooks.service.js';

/**
 * Payments and publishing, one part per job: checkout sessions and their fulfilment (`checkout`), Stripe's webhook
 * (`webhooks`), the local test mode's pages (`testMode`), a member's billing and portal (`billing`), the creator
 * rewards ledger (`earnings`); here, publishing on evidence and the sweep that keeps hosting and rewards in step.
 */
export class PaymentsService {
  readonly checkout: CheckoutService;
  readonly webhooks: WebhooksService;
  readonly testMode: TestModeService;
  readonly billing: BillingService;
  readonly earnings: EarningsService;
  readonly creatorEarnings: CreatorEarningsService;
  readonly payouts: PayoutsService;
  private readonly context: PaymentsContext;
  private sweepTimer: NodeJS.Timeout | null = null;

  constructor(
    orm: Orm,
    private readonly config: Config,
    mixes: MixesService,
    roles: RolesService,
    private readonly rateLimits: RateLimits,
    private readonly log: FastifyBaseLogger,
    holders: CreatorHolders,
  ) {
    this.context = new PaymentsContext(orm, config);
    if (config.isProduction && this.context.testMode)
      log.warn('PAYMENTS_TEST_MODE=1: the local test-mode checkout takes the place of Stripe; anyone can "pay" without money');
    this.checkout = new CheckoutService(this.context);
    this.payouts = new PayoutsService(this.context, roles, holders, log);
    this.creatorEarnings = new CreatorEarningsService(this.context, holders);
    this.webhooks = new WebhooksService(this.context, this.payouts);
    this.testMode = new TestModeService(this.context, this.checkout);
    this.billing = new BillingService(this.context, mixes);
    this.earnings = new EarningsService(this.context, roles);
  }

  /**
   * See the `publish-mix` command. With a checkout `sessionId` (the success page's return) the session is looked up
   * and fulfilled first, so publishing need not wait for the webhook. Wrong BETA codes are limited per member.
   */
  async publish(viewerId: string, raw: { mixId: unknown; code?: unknown; sessionId?: unknown }): Promise<MixView> {
    const input = parseInput(publishInput, raw);
    if (input.sessionId && input.code === null) {
      const fulfilment = await this.checkout.confirm(viewerId, input.sessionId);
      if (fulfilment.mixId && fulfilment.mixId !== input.mixId) throw PaymentErrors.sessionForAnotherMix();
    }
    if (input.code !== null) await this.rateLimits.refuseWhenSpent('wrongBetaCodePerMember', viewerId);
    try {
      const mix = await this.context.transaction((em) =>
        publishMix(em, {
          viewerId,
          mixId: input.mixId,
          code: input.code,
          betaCodes: this.config.BETA_CODES,
          testModeCounts: this.context.testMode,
        }),
      );
      return mixViewOf(mix);
    } catch (error) {
      if (error instanceof WrongBetaCodeError) await this.rateLimits.consume([['wrongBetaCodePerMember', viewerId]]);
      throw error;
    }
  }

  /**
   * Runs the payments sweep (see sweep-payments) now, then this month's payouts where a payout provider is configured
   * (one transfer per creator and month: the runs after the first pay only what failed); the timer runs it every
   * PAYMENTS_SWEEP_SECONDS.
   */
  async sweep(): Promise<{ settled: number }> {
    const swept = await sweepPayments(this.context.orm, this.config.SUBSCRIPTION_GRACE_DAYS, this.context.testMode);
    if (this.context.stripe || this.context.testMode) await this.payouts.run();
    return swept;
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
