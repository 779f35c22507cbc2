import { ForbiddenError } from '../../shared/errors.js';
import type { IUser } from './user.entity.js';

/** A place on the earth, in degrees. */
export interface Place {
  latitude: number;
  longitude: number;
}

const placeOf = (latitude: number | null | undefined, longitude: number | null | undefined): Place | null =>
  typeof latitude === 'number' && typeof longitude === 'number' ? { latitude, longitude } : null;

export const userPolicy = {
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
