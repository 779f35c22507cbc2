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

  /** The moderation queue (claims, disputes, reference recordings; docs/moderation.md#queue): moderators and operators. */
  canModerate(role: Role): boolean {
    return role === 'moderator' || role === 'operator';
  },

  assertCanModerate(role: Role): void {
    if (!rolePolicy.canModerate(role)) throw new ForbiddenError('Only moderators and operators may review the moderation queue');
  },

  /** Nobody decides an item they raised themselves (a moderator's own claim waits for another moderator). */
  assertMayDecide(role: Role, raisedBy: string | null, actorId: string): void {
    rolePolicy.assertCanModerate(role);
    if (raisedBy === actorId) throw new ForbiddenError('Another moderator decides items you raised yourself');
  },

  /** The audit log (docs/moderation.md#audit-log): operators only. */
  canReadAudit(role: Role): boolean {
    return role === 'operator';
  },

  assertCanReadAudit(role: Role): void {
    if (!rolePolicy.canReadAudit(role)) throw new ForbiddenError('Only operators may read the audit log');
  },

  /**
   * Granting and revoking the moderator role in the web app: operators only, and never on an operator (granting would
   * demote them; operators are made and unmade from the command line, docs/moderation.md#roles).
   */
  assertCanSetModerator(actor: Role, target: Role): void {
    if (actor !== 'operator') throw new ForbiddenError('Only operators may grant or revoke the moderator role');
    if (target === 'operator') throw new ForbiddenError('Operators are granted and revoked from the command line only');
  },

  /** Moving creators' money by hand (running the payout job from the app): operators only. */
  canRunPayouts(role: Role): boolean {
    return role === 'operator';
  },

  assertCanRunPayouts(role: Role): void {
    if (!rolePolicy.canRunPayouts(role)) throw new ForbiddenError('Only operators may run payouts');
  },
};
