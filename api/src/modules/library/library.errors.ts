import { NotFoundError } from '../../shared/errors.js';

/** Every error the library answers with, and its words. */
export const LibraryErrors = {
  mixNotFound: () => new NotFoundError('Mix not found'),
  trackNotFound: () => new NotFoundError('Track not found'),
  memberNotFound: () => new NotFoundError('User not found'),
} as const;
