import { z } from 'zod';
import { isUuid } from '../../shared/cursor.js';
import { idOrNull } from '../../shared/inputs.js';

/** The input schema of every library operation. */

/** The documented saved-mixes list answers up to this many a page. */
export const SAVED_MIXES_PAGE_SIZE = 50;

export const mixIdInput = idOrNull;

export const trackIdInput = z.string({ error: 'trackId must be the id of a catalogue track' }).refine(isUuid, {
  message: 'trackId must be the id of a catalogue track',
});

export const trackIdsInput = z
  .array(trackIdInput, { error: 'trackIds must be a list of catalogue track ids' })
  .max(1000, 'trackIds may list at most 1,000 tracks')
  .optional();

export const currentMixInput = z.object({
  mixId: z.unknown(),
  position: z
    .number({ error: 'current_mix_pos must be a number of seconds from 0' })
    .min(0, 'current_mix_pos must be a number of seconds from 0')
    .max(86_400 * 7, 'current_mix_pos must be a number of seconds from 0')
    .nullish()
    .transform((seconds) => seconds ?? 0),
});
