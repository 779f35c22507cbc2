import { z } from 'zod';
import { pageSize } from '../../shared/inputs.js';

/** The input schema of the "For you" row (docs/home-feed.md#for-you). */

/** The row holds at most this many mixes; the home page asks for 12. */
export const FOR_YOU_MAX = 50;
export const FOR_YOU_DEFAULT = 12;

export const forYouInput = z.object({ first: pageSize(FOR_YOU_MAX, FOR_YOU_DEFAULT) });
