import { z } from 'zod';
import { pageSize } from '../../shared/inputs.js';

/** The input schema of the "For you" row (docs/home-feed.md#for-you). */

/** The row holds at most this many mixes; the home page asks for 12. */
export const FOR_YOU_MAX = 50;
export const FOR_YOU_DEFAULT = 12;

export const forYouInput = z.object({ first: pageSize(FOR_YOU_MAX, FOR_YOU_DEFAULT) });

/** REST sends its size as `?limit=`, a string of digits; anything else is left to the schema to refuse. */
export const restLimit = (value: unknown): unknown => (typeof value === 'string' && /^\d{1,6}$/.test(value) ? Number(value) : value);
