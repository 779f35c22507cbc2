import { ConflictError, NotFoundError } from '../../shared/errors.js';

/** Every error the users domain answers with, and its words. */
export const UserErrors = {
  notFound: () => new NotFoundError('User not found'),
  userNameTaken: (userName: string) => new ConflictError(`The username ${userName} is already taken`),
} as const;
