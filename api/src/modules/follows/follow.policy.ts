import { ForbiddenError } from '../../shared/errors.js';

export const followPolicy = {
  /** SPEC §6: a member lists only their own followers and following (anyone sees the counts). */
  assertCanList(listOwnerId: string, viewerId: string): void {
    if (listOwnerId !== viewerId) throw new ForbiddenError('You can only list your own follows');
  },
} as const;
