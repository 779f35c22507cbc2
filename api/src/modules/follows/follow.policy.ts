import { ForbiddenError } from '../../shared/errors.js';

export const followPolicy = {
  /** A member lists only their own followers and following (anyone sees the counts) (docs/follows.md#who-may-see-the-lists). */
  assertCanList(listOwnerId: string, viewerId: string): void {
    if (listOwnerId !== viewerId) throw new ForbiddenError('You can only list your own follows');
  },
};
