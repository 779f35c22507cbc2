import { ForbiddenError } from '../../shared/errors.js';
import type { ClaimStatus } from './creator-claim.entity.js';

/**
 * Who may do what with creator claims and what a held name gives (docs/creators.md#claims). Staff rules (who reviews
 * the queue) are the roles policy's; this file holds the rules about the creators themselves.
 */
export const creatorPolicy = {
  /** A name held by another member is a dispute: it goes to the queue as one, never straight past the holder. */
  queueKind(holderId: string | null, claimantId: string): 'creator_claim' | 'claim_dispute' {
    return holderId && holderId !== claimantId ? 'claim_dispute' : 'creator_claim';
  },

  /** Only a pending claim is decided; approving one makes its member the holder. */
  decidable(status: ClaimStatus): boolean {
    return status === 'pending';
  },

  /** A member reads their own claims only. */
  assertOwnClaim(claimUserId: string, viewerId: string): void {
    if (claimUserId !== viewerId) throw new ForbiddenError('This claim is not yours');
  },

  /**
   * A verified holder of one of a track's creators or of its label speaks for the track: they add and remove its
   * reference recordings and see its earnings.
   */
  holdsTrack(heldKeys: readonly string[], trackKeys: readonly string[]): boolean {
    return trackKeys.some((key) => heldKeys.includes(key));
  },
};
