import type { NoticeStatus, ReportReason, ReportStatus, ReportTargetKind } from './trust.entities.js';

/** The read models of the trust module: what its skins map to GraphQL objects and REST wire names. */

export type MixModerationState = 'hidden' | 'removed';

/** How many notices `myCopyrightNotices` lists (the newest): the filer's and the owner's together. */
export const MY_NOTICES_MAX = 50;

export interface ReportView {
  id: string;
  targetKind: ReportTargetKind;
  targetId: string;
  /** The mix's title or the member's name; null once the target is gone. */
  targetName: string | null;
  reason: ReportReason;
  note: string | null;
  status: ReportStatus;
  outcome: string | null;
  createdAt: Date;
  decidedAt: Date | null;
}

/** One step of a notice's history, as both parties read it: who acted is a party, never a name. */
export interface NoticeEventView {
  action: string;
  by: 'filer' | 'owner' | 'moderator';
  reason: string | null;
  at: Date;
}

export interface NoticeView {
  id: string;
  mixId: string;
  mixTitle: string;
  trackId: string | null;
  trackTitle: string | null;
  claimedName: string;
  text: string;
  status: NoticeStatus;
  counterText: string | null;
  counteredAt: Date | null;
  createdAt: Date;
  decidedAt: Date | null;
  isFiler: boolean;
  isOwner: boolean;
  history: NoticeEventView[];
}

export interface ReportHistoryView {
  reason: ReportReason;
  status: ReportStatus;
  outcome: string | null;
  createdAt: Date;
}

/** What a moderator needs beside a report or notice in the queue. */
export interface TrustItemView {
  targetKind: ReportTargetKind;
  targetId: string;
  targetName: string | null;
  mixState: MixModerationState | null;
  ownerId: string | null;
  ownerName: string | null;
  memberSuspended: boolean;
  memberSuspendedUntil: Date | null;
  reason: ReportReason | null;
  note: string | null;
  /** The tracks recognition found in the mix ("Creator – Title"), and its tracklist. */
  recognisedTracks: string[];
  tracklist: string[];
  earlierReports: number;
  reportHistory: ReportHistoryView[];
  strikes: number;
  notice: NoticeView | null;
}

export interface StrikePolicyView {
  strikeLimit: number;
  windowDays: number;
}

export interface UploadBlockView {
  strikes: number;
  until: Date;
  message: string;
}

export interface HeldMixView {
  mixId: string;
  title: string;
  ownerName: string;
  state: MixModerationState;
  reason: string | null;
  at: Date | null;
}

export interface SuspendedMemberView {
  id: string;
  userName: string | null;
  displayName: string;
  suspendedAt: Date;
  suspendedUntil: Date | null;
  reason: string | null;
}

export interface TransparencyMonthView {
  /** YYYY-MM (UTC). */
  month: string;
  reportsReceived: number;
  notices: number;
  takedowns: number;
  counterNotices: number;
  restorations: number;
  suspensions: number;
}

export interface Page<T> {
  totalCount: number;
  page: number;
  items: T[];
}
