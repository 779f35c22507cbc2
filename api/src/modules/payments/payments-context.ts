import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config.js';
import type { Orm } from '../../db/orm.js';
import type { PaymentProvider } from './providers/payment-provider.js';
import { StripeProvider } from './providers/stripe-provider.js';
import { TestModeProvider } from './providers/test-provider.js';

/** What every part of payments shares: the database, the configuration, and the one provider (Stripe, or the test mode). */
export class PaymentsContext {
  readonly provider: PaymentProvider;
  /** The provider when it is Stripe: only Stripe sends webhooks. */
  readonly stripe: StripeProvider | null;

  constructor(
    readonly orm: Orm,
    readonly config: Config,
  ) {
    this.stripe = config.STRIPE_SECRET_KEY
      ? new StripeProvider({ secretKey: config.STRIPE_SECRET_KEY, apiUrl: config.STRIPE_API_URL })
      : null;
    this.provider = this.stripe ?? new TestModeProvider(orm, config.PUBLIC_URL);
  }

  get testMode(): boolean {
    return this.provider.name === 'test';
  }

  em(): EntityManager {
    return this.orm.em.fork() as EntityManager;
  }

  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.em().transactional((txEm) => work(txEm as EntityManager));
  }
}
