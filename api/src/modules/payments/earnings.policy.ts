import { ForbiddenError } from '../../shared/errors.js';
import type { PayoutAccountStatus, PayoutStatus } from './payout.entity.js';

/**
 * Who may read and move creators' money (docs/creators.md#earnings, docs/creators.md#payouts). Operators read the whole
 * ledger (rolePolicy.canReadLedger) and run payouts (rolePolicy.canRunPayouts); everything here is about a creator's own.
 */
export const earningsPolicy = {
  /**
   * A member's earnings, CSV and payout account are theirs only once a moderator verified them as a creator: the lines
   * they read are those of the creator names they hold, never a name they typed or another member's.
   */
  assertCreator(heldKeys: readonly string[]): void {
    if (heldKeys.length === 0) throw new ForbiddenError('Only verified creators have earnings: claim your creator name first');
  },

  /** A balance is paid once it reaches the minimum; below it, it waits for the next month's run. */
  shouldPay(balanceCents: number, minimumCents: number): boolean {
    return balanceCents > 0 && balanceCents >= minimumCents;
  },

  /** Transfers go only to an account the provider says may be paid. */
  canReceive(status: PayoutAccountStatus): boolean {
    return status === 'enabled';
  },

  /** A payout not yet paid is tried again with its own idempotency key; a paid one is never sent again. */
  needsTransfer(status: PayoutStatus): boolean {
    return status !== 'paid';
  },

  /** One transfer per creator and period, named by this key whatever the attempt. */
  idempotencyKey(userId: string, period: string): string {
    return `payout-${userId}-${period}`;
  },
};
