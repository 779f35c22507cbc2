import { InvalidInputError, NotFoundError } from '../../shared/errors.js';
import { STAFF_ROLES } from './role.policy.js';

/** Every error the roles domain answers with, and its words. */
export const RoleErrors = {
  unknownRole: (role: string) => new InvalidInputError(`Unknown role "${role}": use one of ${STAFF_ROLES.join(', ')}`),
  unknownMember: (email: string) => new NotFoundError(`No member signs in with ${email}`),
} as const;
