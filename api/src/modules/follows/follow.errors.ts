import { InvalidInputError, NotFoundError } from '../../shared/errors.js';

/** Every error the follows domain answers with, and its words. */
export const FollowErrors = {
  memberNotFound: () => new NotFoundError('User not found'),
  notYourself: () => new InvalidInputError('You cannot follow yourself'),
} as const;
