import { z } from 'zod';
import { TRACKLIST_MAX } from '../../shared/domain.js';

/** How many of each tracklist's first entries to read (a card previews four); none means all. */
export const tracklistLimitInput = z
  .number({ error: `first must be a whole number from 1 to ${TRACKLIST_MAX}` })
  .int(`first must be a whole number from 1 to ${TRACKLIST_MAX}`)
  .min(1, `first must be a whole number from 1 to ${TRACKLIST_MAX}`)
  .max(TRACKLIST_MAX, `first must be a whole number from 1 to ${TRACKLIST_MAX}`)
  .nullish();
