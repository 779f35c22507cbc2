import type { NoticeStatus, ReportReason, ReportStatus, ReportTargetKind } from './trust.entities.js';
import type { NoticeEventView, NoticeView, ReportView } from './trust.views.js';

/** The rows and read models the trust service and its moderation share (SQL over the module's tables). */

export interface NoticeRow {
  id: string;
  filer_id: string | null;
  mix_id: string;
  owner_id: string;
  mix_title: string;
  track_id: string | null;
  track_title: string | null;
  claimed_name: string;
  text: string;
  status: NoticeStatus;
  counter_text: string | null;
  countered_at: Date | null;
  created_at: Date;
  decided_at: Date | null;
  history: { action: string; reason: string | null; at: string }[];
}

/** A notice with its mix, track and history (its audit lines), in one statement however many notices it reads. */
export const NOTICE_SELECT = `select n.id, n.filer_id, n.mix_id, m.owner_id, m.title as mix_title, n.track_id, t.title as track_title,
  n.claimed_name, n.text, n.status, n.counter_text, n.countered_at, n.created_at, n.decided_at,
  (select coalesce(json_agg(json_build_object('action', a.action, 'reason', a.reason, 'at', a.at) order by a.at, a.id), '[]')
     from audit_entry a where a.target_kind = 'copyright_notice' and a.target_id = n.id::text) as history
  from copyright_notice n join mix m on m.id = n.mix_id left join track t on t.id = n.track_id`;

/** The audit actions a notice's parties (not moderators) take. */
const PARTY_ACTIONS: Record<string, NoticeEventView['by']> = { 'notice.filed': 'filer', 'notice.countered': 'owner' };

export const noticeView = (row: NoticeRow, viewerId: string): NoticeView => ({
  id: row.id,
  mixId: row.mix_id,
  mixTitle: row.mix_title,
  trackId: row.track_id,
  trackTitle: row.track_title,
  claimedName: row.claimed_name,
  text: row.text,
  status: row.status,
  counterText: row.counter_text,
  counteredAt: row.countered_at ? new Date(row.countered_at) : null,
  createdAt: new Date(row.created_at),
  decidedAt: row.decided_at ? new Date(row.decided_at) : null,
  isFiler: row.filer_id === viewerId,
  isOwner: row.owner_id === viewerId,
  history: (Array.isArray(row.history) ? row.history : []).map((line) => ({
    action: line.action,
    by: PARTY_ACTIONS[line.action] ?? 'moderator',
    reason: line.reason,
    at: new Date(line.at),
  })),
});

export interface ReportRow {
  id: string;
  target_kind: ReportTargetKind;
  target_id: string;
  target_name: string | null;
  reason: ReportReason;
  note: string | null;
  status: ReportStatus;
  outcome: string | null;
  created_at: Date;
  decided_at: Date | null;
}

/** A report with its target's name (a mix's title, a member's name), whatever has become of the target since. */
export const REPORT_SELECT = `select r.id, r.target_kind, r.target_id, r.reason, r.note, r.status, r.outcome, r.created_at, r.decided_at,
  case r.target_kind when 'mix' then (select title from mix where id = r.target_id)
    else (select coalesce(user_name, display_name) from app_user where id = r.target_id) end as target_name
  from content_report r`;

export const reportView = (row: ReportRow): ReportView => ({
  id: row.id,
  targetKind: row.target_kind,
  targetId: row.target_id,
  targetName: row.target_name,
  reason: row.reason,
  note: row.note,
  status: row.status,
  outcome: row.outcome,
  createdAt: new Date(row.created_at),
  decidedAt: row.decided_at ? new Date(row.decided_at) : null,
});

/** A report queue item's subject: one item per target, however many members report it. */
export const reportSubject = (kind: ReportTargetKind, id: string) => `${kind}:${id}`;

export function parseReportSubject(subject: string): { kind: ReportTargetKind; id: string } | null {
  const match = /^(mix|member):([0-9a-f-]{36})$/.exec(subject);
  return match ? { kind: match[1] === 'mix' ? 'mix' : 'member', id: match[2] } : null;
}
