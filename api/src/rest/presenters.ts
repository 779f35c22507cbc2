import type { LibraryIds } from '../modules/library/library.service.js';
import type { IUser } from '../modules/users/user.entity.js';
import { type Place, userPolicy } from '../modules/users/user.policy.js';
import type { MemberSummary, ProfileView } from '../modules/users/users.service.js';
import type { Services } from '../services.js';

/** GeoJSON order, as REST reads `location.coordinates`: [longitude, latitude]. */
export function locationWire(latitude: number | null | undefined, longitude: number | null | undefined) {
  return latitude === null || latitude === undefined || longitude === null || longitude === undefined
    ? null
    : { type: 'Point', coordinates: [longitude, latitude] };
}

const placeWire = (place: Place | null) => locationWire(place?.latitude, place?.longitude);

/** A member as the REST wire names show them to anyone. */
export function userWire(services: Services, user: IUser, view?: Omit<ProfileView, 'user'>) {
  return {
    _id: user.id,
    user_name: user.userName ?? null,
    display_name: user.displayName,
    user_type: user.userType,
    bio: user.bio,
    user_image: services.users.imageUrl(user),
    createdAt: user.createdAt.toISOString(),
    location: placeWire(userPolicy.publicLocation(user)),
    ...(view ? { isFollowing: view.isFollowing, distance: view.distanceKm } : {}),
  };
}

/** The signed-in member: the public fields plus what only they may see (their place exactly as they gave it). */
export function loggedInUserWire(services: Services, user: IUser) {
  return {
    ...userWire(services, user),
    location: placeWire(userPolicy.ownLocation(user)),
    email: user.email,
    has_opted_in: user.hasOptedIn,
    is_agreed_to_conduct: user.isAgreedToConduct,
    current_mix: user.currentMix?.id ?? null,
    current_mix_pos: user.currentMixPos,
  };
}

export const memberSummaryWire = (member: MemberSummary) => ({ user_name: member.userName, display_name: member.displayName });

/** The logged-in member (docs/public-api.md#wire-names): the ids of the member's saved mixes (still published) and saved tracks, newest first. */
export const libraryIdsWire = (library: LibraryIds) => ({ saved_mixes_by_me: library.savedMixIds, saved_tracks: library.savedTrackIds });
