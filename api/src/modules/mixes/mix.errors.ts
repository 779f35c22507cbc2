import { FEED_MAX_RADIUS_KM, TRACKLIST_MAX, TRACKLIST_MIN } from '../../shared/domain.js';
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError, UnavailableForLegalReasonsError } from '../../shared/errors.js';
import { TRACKLIST_MISSING_FIELDS } from '../../shared/rules.js';

/** Every error the mixes domain answers with, and its words; the status and GraphQL code come with the error's class. */
export const MixErrors = {
  notFound: () => new NotFoundError('Mix not found'),
  unavailableForLegalReasons: () =>
    new UnavailableForLegalReasonsError(
      'This mix is unavailable for legal reasons: it was taken down after a copyright notice or by a moderator',
    ),
  ownerNotFound: () => new NotFoundError('User not found'),
  notYours: () => new ForbiddenError('Only the owner of this mix may change it'),
  versionsNotYours: () => new ForbiddenError('Only the owner of this mix may see its tracklist versions'),
  alreadyPublished: () => new ConflictError('This mix is already published'),
  noPoint: () => new InvalidInputError('To filter by distance, share your location or send from_point {latitude, longitude}'),
  radius: () => new InvalidInputError(`search_radius must be a number of km from 0 to ${FEED_MAX_RADIUS_KM.toLocaleString('en')}`),
  unknownTrack: (position: number) => new InvalidInputError(mixInputMessages.unknownTrack(position)),
  pastTheEnd: (position: number, durationSeconds: number) =>
    new InvalidInputError(`Track ${position}: its times must be inside the mix, which lasts ${Math.floor(durationSeconds)} seconds`),
  tooManyDrafts: (limit: number) =>
    new ConflictError(`You have ${limit} unpublished drafts, the most one member may keep: publish or delete one first`),
  tracklistFirst: () => new InvalidInputError(`Add ${TRACKLIST_MIN} to ${TRACKLIST_MAX} tracks before publishing`),
} as const;

/** Messages that input schemas give (a schema names its message rather than throwing). */
export const mixInputMessages = {
  radius: `search_radius must be a number of km from 0 to ${FEED_MAX_RADIUS_KM.toLocaleString('en')}`,
  tracklistSize: (count: number) => `A tracklist needs ${TRACKLIST_MIN} to ${TRACKLIST_MAX} tracks; this one has ${count}`,
  tracklistShape: `tracks must be a list of ${TRACKLIST_MIN} to ${TRACKLIST_MAX} track entries`,
  missingFields: (position: number) => `${TRACKLIST_MISSING_FIELDS} (track ${position} needs an artist and a title)`,
  coverUrl: 'A track cover must be an http(s) URL',
  unknownTrack: (position: number) => `Track ${position}: no such catalogue track; choose one of the options or add it as a manual track`,
  startTime: (position: number) => `Track ${position}: the start time must be a number of seconds from 0`,
  endTime: (position: number) => `Track ${position}: the end time must be a number of seconds from 0`,
  endBeforeStart: (position: number) => `Track ${position}: the end time must come after the start time`,
  startsGoBack: (position: number) => `Track ${position} starts before the track above it: start times must not go back`,
} as const;
