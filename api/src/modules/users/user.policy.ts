import { ForbiddenError } from '../../shared/errors.js';

export const userPolicy = {
  /** SPEC §7 opt-in names a userId; a member may only change their own (a missing id means themself). */
  assertOwnOptIn(viewerId: string, targetUserId: unknown): void {
    if (targetUserId !== undefined && targetUserId !== null && targetUserId !== '' && targetUserId !== viewerId) {
      throw new ForbiddenError('You can only change your own opt-in');
    }
  },
} as const;
