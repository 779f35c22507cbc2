import { ForbiddenError } from '../../shared/errors.js';

/** The roles above a plain member: moderators review claims and reports, operators run the service. */
export const STAFF_ROLES = ['moderator', 'operator'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
export type Role = 'member' | StaffRole;

const isRole = (value: string): value is StaffRole => (STAFF_ROLES as readonly string[]).includes(value);

/** Who may do what beyond their own things: every such rule of the service, in one place. */
export const rolePolicy = {
  parse(value: string): StaffRole | null {
    return isRole(value) ? value : null;
  },

  /** The creator rewards ledger (its totals, what subscribers listened to): operators only. */
  canReadLedger(role: Role): boolean {
    return role === 'operator';
  },

  assertCanReadLedger(role: Role): void {
    if (!rolePolicy.canReadLedger(role)) throw new ForbiddenError('Only operators may read the creator rewards ledger');
  },
};
