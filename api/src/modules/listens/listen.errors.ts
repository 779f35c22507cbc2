import { NotFoundError } from '../../shared/errors.js';

/** Every error the listens domain answers with, and its words. */
export const ListenErrors = {
  mixNotFound: () => new NotFoundError('Mix not found'),
  noListenInProgress: () => new NotFoundError('No listen of this mix is in progress'),
} as const;
