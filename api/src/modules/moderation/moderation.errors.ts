import { ConflictError, InvalidInputError, NotFoundError } from '../../shared/errors.js';

/** Every error the moderation domain answers with, and its words. */
export const ModerationErrors = {
  itemNotFound: () => new NotFoundError('No such item in the moderation queue'),
  alreadyDecided: () => new ConflictError('This item has already been decided'),
  unknownKind: (kind: string) => new InvalidInputError(`Nobody decides items of kind "${kind}"`),
  memberNotFound: () => new NotFoundError('No member has that user name or e-mail address'),
  reasonNeeded: () => new InvalidInputError('Give a reason: it is written to the audit log'),
} as const;

export const moderationInputMessages = {
  decision: 'decision must be APPROVE or REJECT',
  status: 'status must be OPEN, APPROVED or REJECTED',
  member: 'member must be a user name or an e-mail address',
} as const;
