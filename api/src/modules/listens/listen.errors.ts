import { InvalidInputError, NotFoundError } from '../../shared/errors.js';

/** Every error the listens domain answers with, and its words. */
export const ListenErrors = {
  mixNotFound: () => new NotFoundError('Mix not found'),
  noListenInProgress: () => new NotFoundError('No listen of this mix is in progress'),
  inFuture: (field: 'start' | 'end') => new InvalidInputError(`${field} cannot be in the future`),
  startBeforePublishing: () => new InvalidInputError('start cannot be before the mix was published'),
  endBeforeStart: () => new InvalidInputError('end cannot be before the start of the listen'),
} as const;
