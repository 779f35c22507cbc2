import { ForbiddenError, InvalidInputError, NotFoundError, PayloadTooLargeError } from '../../shared/errors.js';

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/** The shortest reference worth storing: a few seconds cannot be told apart from other music. */
export const REFERENCE_MIN_SECONDS = 10;

export const RecognitionErrors = {
  notYours: () => new ForbiddenError('Only the owner of this mix may see the tracks recognised in it'),
  trackNotFound: () => new NotFoundError('Track not found'),
  notYourTrack: () =>
    new ForbiddenError("Only the track's verified creators and label, or a moderator, may add or remove its reference audio"),
  noReference: () => new NotFoundError('This track has no reference audio'),
  pendingGone: () => new NotFoundError('The reference audio behind this queue item no longer exists'),
  tooLarge: (maxBytes: number) => new PayloadTooLargeError(`Reference audio too large (max. ${megabytes(maxBytes)})`),
  notAudio: (why: string) => new InvalidInputError(`Reference audio must be an MP3 or WAV file we can decode: ${why}`),
  tooShort: (seconds: number) =>
    new InvalidInputError(`Reference audio too short: ${seconds.toFixed(1)} s (at least ${REFERENCE_MIN_SECONDS} s)`),
  noAudio: () => new InvalidInputError('Missing: the reference audio (a file in the form field "audio", or a finished upload id)'),
} as const;
