import { NotifiedCache } from '../../db/notified-cache.js';

/** The channel app_user's trigger notifies with a deleted member's id (see Migration20261203000000_members_removed). */
const MEMBERS_REMOVED_CHANNEL = 'members_removed';

export type SignedInMembers = NotifiedCache<true>;

/**
 * Which token holders still exist, remembered per member: a signed-in request (a feed page, each range of a mix)
 * would otherwise ask the database first. A deleted member's entry goes at once on every instance.
 */
export const signedInMembers = (connectionString: string, log: { warn(object: object, message: string): void }): SignedInMembers =>
  // An hour: removals arrive by notification (and nothing is remembered while they cannot), so the time limit is only
  // a backstop; a shorter one would cost a member's requests a lookup every time it lapsed.
  new NotifiedCache<true>(connectionString, log, { channel: MEMBERS_REMOVED_CHANNEL, ttlMs: 60 * 60 * 1000 });
