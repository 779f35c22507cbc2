import { z } from 'zod';
import { idOrNull, moment } from '../../shared/inputs.js';

/** The input schema of every listens operation. */

export const mixIdInput = idOrNull;

/** A listen's start or end as the player sends it; absent (or blank) means now. */
export const listenMomentInput = (field: 'start' | 'end') =>
  z.preprocess((value) => (value === '' || value === null ? undefined : value), moment(field).optional());
