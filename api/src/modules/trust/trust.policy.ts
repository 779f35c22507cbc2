import { ForbiddenError } from '../../shared/errors.js';
import { STRIKE_LIMIT_DEFAULT, STRIKE_WINDOW_DAYS_DEFAULT } from '../../shared/rules.js';
import { type Role, rolePolicy } from '../roles/index.js';
import type { NoticeStatus } from './trust.entities.js';
import { TrustErrors } from './trust.errors.js';
import type { TRUST_ACTIONS } from './trust.inputs.js';
import type { StrikePolicyView, UploadBlockView } from './trust.views.js';

export type TrustAction = (typeof TRUST_ACTIONS)[number];
export type TrustKind = 'report' | 'copyright_notice';

/**
 * Who may do what with reports, notices, holds and suspensions (docs/trust.md). Every operation of the module is named
 * here with who may call it; the skins call `assertMay` with the caller's role before anything else.
 */
export const TRUST_OPERATIONS = {
  reportContent: 'member',
  myReports: 'member',
  fileCopyrightNotice: 'member',
  counterNotice: 'member',
  copyrightNotice: 'member',
  myCopyrightNotices: 'member',
  myUploadBlock: 'member',
  moderateTrustItem: 'moderator',
  restoreMix: 'moderator',
  restoreMember: 'moderator',
  heldMixes: 'moderator',
  suspendedMembers: 'moderator',
  trustItemDetails: 'moderator',
  setStrikePolicy: 'operator',
  strikePolicy: 'anyone',
  transparencyReport: 'anyone',
} as const;
export type TrustOperation = keyof typeof TRUST_OPERATIONS;

/** Which actions each queue kind takes, and whether each upholds the item (approve) or lets it go (reject). */
const ACTIONS: Record<TrustKind, readonly TrustAction[]> = {
  report: ['dismiss', 'hide_mix', 'remove_mix', 'warn', 'suspend_member'],
  copyright_notice: ['restore', 'remove', 'remove_and_strike'],
};
const MIX_ONLY: readonly TrustAction[] = ['hide_mix', 'remove_mix'];

export const STRIKE_POLICY_DEFAULT: StrikePolicyView = { strikeLimit: STRIKE_LIMIT_DEFAULT, windowDays: STRIKE_WINDOW_DAYS_DEFAULT };
const DAY_MS = 24 * 60 * 60 * 1000;

export const trustPolicy = {
  /** Staff operations by role; member operations need only a viewer (the skins' `requireViewer`). */
  assertMay(operation: TrustOperation, role: Role): void {
    const needs = TRUST_OPERATIONS[operation];
    if (needs === 'moderator') rolePolicy.assertCanModerate(role);
    if (needs === 'operator' && role !== 'operator') throw new ForbiddenError('Only operators may set the strike policy');
  },

  /** Whether a queue kind takes the action at all (the moderation queue asks before deciding). */
  takes(kind: TrustKind, action: string): boolean {
    return (ACTIONS[kind] as readonly string[]).includes(action);
  },

  /** What approve and reject mean for a kind when a moderator decides through the generic queue decision. */
  defaultAction(kind: TrustKind, targetKind: 'mix' | 'member', decision: 'approve' | 'reject'): TrustAction {
    if (kind === 'copyright_notice') return decision === 'approve' ? 'remove' : 'restore';
    if (decision === 'reject') return 'dismiss';
    return targetKind === 'mix' ? 'hide_mix' : 'warn';
  },

  /** The actions a moderator may take on a queue item of this kind and target. */
  assertActionFits(kind: TrustKind, targetKind: 'mix' | 'member', action: TrustAction): void {
    if (!ACTIONS[kind].includes(action)) throw TrustErrors.actionNotFor(action, kind === 'report' ? 'report' : 'copyright notice');
    if (targetKind === 'member' && MIX_ONLY.includes(action)) throw TrustErrors.actionNotFor(action, 'report of a member');
  },

  /** Dismissing a report and restoring a noticed mix let the item go; every other action upholds it. */
  decisionOf(action: TrustAction): 'approve' | 'reject' {
    return action === 'dismiss' || action === 'restore' ? 'reject' : 'approve';
  },

  /**
   * A notice is filed only by a verified creator or label of the track, and only for a mix whose tracklist or
   * recognition shows that track: nobody hides a mix that is not theirs to hide.
   */
  assertCanFile(holdsTrack: boolean, trackInMix: boolean): void {
    if (!holdsTrack) throw TrustErrors.notHolder();
    if (!trackInMix) throw TrustErrors.trackNotInMix();
  },

  /** A notice is read by its filer, the mix's owner and moderators. */
  assertCanReadNotice(viewerId: string, filerId: string | null, ownerId: string, role: Role): void {
    if (viewerId !== filerId && viewerId !== ownerId && !rolePolicy.canModerate(role)) throw TrustErrors.notNoticeParty();
  },

  /** The owner answers an open notice once. */
  assertCanCounter(viewerId: string, ownerId: string, status: NoticeStatus): void {
    if (viewerId !== ownerId) throw TrustErrors.notMixOwner();
    if (status === 'countered') throw TrustErrors.alreadyCountered();
    if (status !== 'open') throw TrustErrors.noticeClosed();
  },

  /** The hold on a mix is shown to its owner and moderators. */
  seesHold(viewerId: string | null, ownerId: string, role: Role): boolean {
    return viewerId === ownerId || rolePolicy.canModerate(role);
  },

  /**
   * Repeat infringers: at `strikeLimit` upheld strikes within `windowDays`, uploads stop until the oldest counted
   * strike leaves the window (then the count is below the limit again). `strikes` are the strike times, any order.
   */
  uploadBlock(strikes: readonly Date[], policy: StrikePolicyView, now = new Date()): UploadBlockView | null {
    const from = now.getTime() - policy.windowDays * DAY_MS;
    const inWindow = strikes
      .map((at) => at.getTime())
      .filter((at) => at > from)
      .sort((a, b) => b - a);
    if (inWindow.length < policy.strikeLimit) return null;
    // The strike whose leaving the window takes the count below the limit.
    const until = new Date(inWindow[policy.strikeLimit - 1] + policy.windowDays * DAY_MS);
    return {
      strikes: inWindow.length,
      until,
      message: TrustErrors.uploadsBlocked(inWindow.length, until).message,
    };
  },
};
