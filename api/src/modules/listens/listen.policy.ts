import { ForbiddenError } from '../../shared/errors.js';
import { mixPolicy } from '../mixes/index.js';

export const listenPolicy = {
  /** A mix's listen records (who listened, when) are its owner's to see; anyone sees the totals (stats, see docs/mix-page.md#stats). */
  assertCanSeeRecords(mixOwnerId: string, viewerId: string): void {
    if (!mixPolicy.seesAudience(viewerId, mixOwnerId)) throw new ForbiddenError('Only the owner of a mix can see its listeners');
  },
};
