import { ForbiddenError } from '../../shared/errors.js';
import type { IUser } from './user.entity.js';

/** A place on the earth, in degrees. */
export interface Place {
  latitude: number;
  longitude: number;
}

const placeOf = (latitude: number | null | undefined, longitude: number | null | undefined): Place | null =>
  typeof latitude === 'number' && typeof longitude === 'number' ? { latitude, longitude } : null;

/**
 * A member under a suspension that has not ended (docs/trust.md#suspensions), over `app_user` columns named with the
 * given alias: they, their profile and their mixes are gone for everyone, and they cannot sign in. Their mixes read the
 * same from the copy of the suspension on each mix (OWNER_SUSPENDED_SQL in mixes/mix.policy.ts).
 */
export const suspendedSql = (alias: string) =>
  `(${alias}.suspended_at is not null and (${alias}.suspended_until is null or ${alias}.suspended_until > now()))`;

/** Anyone may see this member: not suspended (SQL over `app_user` named with the alias). */
export const activeMemberSql = (alias: string) => `not ${suspendedSql(alias)}`;

export interface SuspensionFacts {
  suspendedAt: Date | null;
  suspendedUntil: Date | null;
}

export const userPolicy = {
  /** `suspendedSql`, for a member in hand. */
  isSuspended(user: SuspensionFacts, now = new Date()): boolean {
    return user.suspendedAt !== null && (user.suspendedUntil === null || user.suspendedUntil.getTime() > now.getTime());
  },

  /** Opt-in names a userId; a member may only change their own (a missing id means themself) (docs/profiles.md#calls). */
  assertOwnOptIn(viewerId: string, targetUserId: unknown): void {
    if (targetUserId !== undefined && targetUserId !== null && targetUserId !== '' && targetUserId !== viewerId) {
      throw new ForbiddenError('You can only change your own opt-in');
    }
  },

  /** Where anyone may see a member: the centre of the ~2 km cell holding their point, never the point (issue 26). */
  publicLocation(user: Pick<IUser, 'cellLatitude' | 'cellLongitude'>): Place | null {
    return placeOf(user.cellLatitude, user.cellLongitude);
  },

  /** The point exactly as the member gave it: for the member alone (their own account, as in sign-up and settings). */
  ownLocation(user: Pick<IUser, 'latitude' | 'longitude'>): Place | null {
    return placeOf(user.latitude, user.longitude);
  },
};
