import { NotFoundError } from '../../shared/errors.js';

/** Every error the tracks domain answers with, and its words. */
export const TrackErrors = {
  notFound: () => new NotFoundError('Track not found'),
} as const;
