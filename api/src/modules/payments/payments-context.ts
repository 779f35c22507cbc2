import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config.js';
import type { Orm } from '../../db/orm.js';
import { PaymentErrors } from './payment.errors.js';
import { SINGLE_PURCHASE_CENTS } from './payment.policy.js';
import type { PaymentProvider } from './providers/payment-provider.js';
import { StripeProvider } from './providers/stripe-provider.js';
import { TestModeProvider } from './providers/test-provider.js';

/**
 * What every part of payments shares: the database, the configuration, and the one provider: Stripe when
 * STRIPE_SECRET_KEY is set, else the local test mode where PAYMENTS_TEST_MODE allows it, else none (payments fail closed).
 */
export class PaymentsContext {
  readonly configured: PaymentProvider | null;
  /** The provider when it is Stripe: only Stripe sends webhooks. */
  readonly stripe: StripeProvider | null;

  constructor(
    readonly orm: Orm,
    readonly config: Config,
  ) {
    this.stripe = config.STRIPE_SECRET_KEY
      ? new StripeProvider({ secretKey: config.STRIPE_SECRET_KEY, apiUrl: config.STRIPE_API_URL })
      : null;
    this.configured = this.stripe ?? (config.PAYMENTS_TEST_MODE ? new TestModeProvider(orm, config.PUBLIC_URL) : null);
  }

  /** The provider; a 503 that says so when this server has none. */
  get provider(): PaymentProvider {
    if (!this.configured) throw PaymentErrors.notConfigured();
    return this.configured;
  }

  /** The test mode is the provider: only then do its sessions, subscriptions and purchases count for anything. */
  get testMode(): boolean {
    return this.configured?.name === 'test';
  }

  /** What each kind of checkout costs here, in cents. */
  get prices(): { single: number; subscription: number } {
    return { single: SINGLE_PURCHASE_CENTS, subscription: this.config.SUBSCRIPTION_PRICE_CENTS };
  }

  em(): EntityManager {
    return this.orm.em.fork() as EntityManager;
  }

  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.em().transactional((txEm) => work(txEm as EntityManager));
  }
}
