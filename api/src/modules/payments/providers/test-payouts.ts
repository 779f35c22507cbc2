import { createHash } from 'node:crypto';
import type { NewTransfer, PayoutProvider } from './payout-provider.js';

const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 24);

/**
 * The local test mode's payout accounts and transfers (only where PAYMENTS_TEST_MODE allows the test mode): an account
 * is ready at once, a transfer moves no money and is named after its idempotency key, so asking twice is one transfer.
 */
export class TestModePayouts implements PayoutProvider {
  readonly name = 'test' as const;

  async createAccount(userId: string): Promise<{ accountRef: string; status: 'enabled' }> {
    return { accountRef: `acct_test_mixcrate_${userId.replaceAll('-', '')}`, status: 'enabled' };
  }

  async onboardingLink(_accountRef: string, returnUrl: string): Promise<string> {
    return returnUrl;
  }

  async transfer(transfer: NewTransfer): Promise<{ transferRef: string }> {
    return { transferRef: `tr_test_mixcrate_${digest(transfer.idempotencyKey)}` };
  }
}
