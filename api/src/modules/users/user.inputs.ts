import { z } from 'zod';
import { USER_TYPE_CODES } from '../../shared/domain.js';
import { type RawInput, storable, text } from '../../shared/inputs.js';
import { type CoordinateRule, LOCATION_RULE } from '../../shared/rules.js';
import { bioSchema, displayNameSchema, userNameSchema } from '../../shared/validation.js';

/** The input schema of every users operation. */

// Seven decimals are about a centimetre; rounding there also turns subnormal numbers (5e-324), on which PostgreSQL's
// earthdistance underflows, into 0.
const degrees = ({ limit, notANumber, outOfRange }: CoordinateRule) =>
  z
    .number({ error: notANumber })
    .min(-limit, outOfRange)
    .max(limit, outOfRange)
    .transform((value) => Math.round(value * 1e7) / 1e7 || 0);

export const locationInput = z.object({ latitude: degrees(LOCATION_RULE.latitude), longitude: degrees(LOCATION_RULE.longitude) });
export type Location = z.output<typeof locationInput>;

export const userTypeInput = z.enum(USER_TYPE_CODES, { error: `Unknown user type; use one of: ${USER_TYPE_CODES.join(', ')}` });

export const userNameInput = storable(userNameSchema);

export const agreedInput = z.boolean({ error: 'is_agreed_to_conduct must be true or false' });
export const optInInput = z.boolean({ error: 'has_opted_in must be true or false' });

export const profileChangesInput = z.object({
  displayName: storable(displayNameSchema).optional(),
  bio: storable(bioSchema).optional(),
  userType: userTypeInput.optional(),
  image: z.instanceof(Buffer).optional(),
});
export type ProfileChanges = RawInput<typeof profileChangesInput>;

/** Member search: any text (the first 50 characters count); blank finds nobody. */
export const searchInput = z
  .string({ error: 'searchString must be text' })
  .transform((value) => value.trim().slice(0, 50))
  .pipe(storable(z.string()));

/** A member's page by user name (a path segment): anything that is no user name finds nobody. */
export const userNameLookupInput = text(100);
