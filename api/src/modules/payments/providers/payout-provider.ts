import type { PayoutAccountStatus } from '../payout.entity.js';

export interface NewTransfer {
  accountRef: string;
  amountCents: number;
  /** The same key for every attempt of one payout: the provider makes one transfer of it, however often asked. */
  idempotencyKey: string;
  payoutId: string;
  period: string;
}

/**
 * What payouts ask of a provider (docs/creators.md#payouts): Stripe Connect Express accounts and transfers through the
 * SDK, or the local test mode's stand-in where the test mode is allowed.
 */
export interface PayoutProvider {
  readonly name: 'stripe' | 'test';
  createAccount(userId: string, email: string): Promise<{ accountRef: string; status: PayoutAccountStatus }>;
  /** Where the creator finishes onboarding (Stripe's hosted Express onboarding; the test mode's return page). */
  onboardingLink(accountRef: string, returnUrl: string, refreshUrl: string): Promise<string>;
  transfer(transfer: NewTransfer): Promise<{ transferRef: string }>;
}
