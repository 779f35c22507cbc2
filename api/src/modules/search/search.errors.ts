import { InvalidInputError } from '../../shared/errors.js';

/** Every error search answers with, and its words. */
export const SearchErrors = {
  /** A distance filter needs a place to measure from (docs/search.md#filters). */
  noPlace: () => new InvalidInputError('Distance needs your location: add it in Settings, or sign in'),
  /** Pages end where the ranking does. */
  tooDeep: (max: number) => new InvalidInputError(`Search pages reach at most the first ${max} results`),
} as const;
