import { ConflictError, NotFoundError } from '../../shared/errors.js';

/** Every error the creators domain answers with, and its words. */
export const CreatorErrors = {
  trackNotFound: () => new NotFoundError('Track not found'),
  subjectNotFound: (subject: string, name: string) => new NotFoundError(`No ${subject} called "${name}" is in the catalogue`),
  alreadyYours: () => new ConflictError('You are already the verified holder of this name'),
  alreadyPending: () => new ConflictError('Your claim on this name is already waiting for a moderator'),
  claimGone: () => new NotFoundError('The claim behind this queue item no longer exists'),
} as const;

export const creatorInputMessages = {
  subject: 'kind must be CREATOR or LABEL',
  name: 'name must be the creator or label name as the catalogue shows it (1 to 200 characters)',
  evidence: 'evidence must be 1 to 5 links (http or https), each at most 500 characters',
  note: 'note must be at most 2000 characters',
} as const;
