import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError, TooManyRequestsError } from '../../shared/errors.js';
import { REPORTS_PER_HOUR, STRIKE_LIMIT_BOUNDS, STRIKE_WINDOW_DAYS_BOUNDS } from '../../shared/rules.js';

const day = (date: Date) => date.toISOString().slice(0, 10);

/** Every error the trust domain answers with, and its words (docs/trust.md). */
export const TrustErrors = {
  targetNotFound: () => new NotFoundError('Nothing to report: no such mix or member'),
  ownTarget: () => new InvalidInputError('You cannot report yourself or your own mix'),
  alreadyReported: () => new ConflictError('You have already reported this; a moderator will look at your open report'),
  tooManyReports: (retryAfterSeconds: number) =>
    new TooManyRequestsError(`You can file at most ${REPORTS_PER_HOUR} reports an hour; please try again later`, retryAfterSeconds),
  mixNotFound: () => new NotFoundError('Mix not found'),
  trackNotFound: () => new NotFoundError('Track not found'),
  notHolder: () => new ForbiddenError('Only a verified creator or label of this track may file a copyright notice for it'),
  trackNotInMix: () => new ForbiddenError('This track is not in the mix: neither its tracklist nor recognition shows it'),
  ownMix: () => new InvalidInputError('This is your own mix: you may delete it instead'),
  noticeNotFound: () => new NotFoundError('No such copyright notice'),
  notNoticeParty: () => new ForbiddenError('Only its filer, the mix’s owner and moderators may read this notice'),
  notMixOwner: () => new ForbiddenError('Only the mix’s owner may answer a notice with a counter-notice'),
  noticeClosed: () => new ConflictError('This notice has been decided; it can no longer be answered'),
  alreadyCountered: () => new ConflictError('You have already answered this notice'),
  notForItem: (action: string) => new InvalidInputError(`The action ${action} does not apply to this queue item`),
  actionNotFor: (action: string, kind: string) => new InvalidInputError(`The action ${action} does not apply to a ${kind}`),
  nothingHeld: () => new ConflictError('This mix is not hidden or removed'),
  notSuspended: () => new ConflictError('This member is not suspended'),
  memberNotFound: () => new NotFoundError('No such member'),
  staffMember: () => new ForbiddenError('Moderators and operators are not suspended from the queue; an operator revokes the role first'),
  untilInPast: () => new InvalidInputError('suspendedUntil must be in the future'),
  uploadsBlocked: (strikes: number, until: Date) =>
    new ForbiddenError(
      `Uploads are blocked until ${day(until)}: ${strikes} copyright strikes were upheld against your mixes in the strike window (docs/trust.md#repeat-infringers)`,
    ),
} as const;

export const trustInputMessages = {
  targetKind: 'targetKind must be MIX or MEMBER',
  reason: 'reason must be COPYRIGHT, ABUSE, SPAM, IMPERSONATION or OTHER',
  targetId: 'targetId must be the id of a mix or a member',
  text: 'Write the notice: what is yours and where it plays',
  counterText: 'Write the counter-notice: why the mix may stay',
  action: 'action must be one of DISMISS, HIDE_MIX, REMOVE_MIX, WARN, SUSPEND_MEMBER, RESTORE, REMOVE, REMOVE_AND_STRIKE',
  until: 'suspendedUntil must be a date and time (ISO 8601)',
  strikeLimit: `strikeLimit must be a whole number from ${STRIKE_LIMIT_BOUNDS.min} to ${STRIKE_LIMIT_BOUNDS.max}`,
  windowDays: `windowDays must be a whole number of days from ${STRIKE_WINDOW_DAYS_BOUNDS.min} to ${STRIKE_WINDOW_DAYS_BOUNDS.max}`,
  months: (max: number) => `months must be a whole number from 1 to ${max}`,
} as const;
