import type { EntityManager } from '@mikro-orm/postgresql';
import { STRIKE_WINDOW_DAYS_DEFAULT } from '../../shared/rules.js';
import { suspendedSql } from '../users/index.js';
import type { ReportReason, ReportStatus, ReportTargetKind } from './trust.entities.js';
import type { MixModerationState, NoticeView, TrustItemView } from './trust.views.js';
import { NOTICE_SELECT, type NoticeRow, noticeView, parseReportSubject } from './trust-reads.js';

/** How many earlier reports of a target a queue item lists. */
const HISTORY_SHOWN = 20;

interface TargetRow {
  name: string | null;
  owner_id: string | null;
  owner_name: string | null;
  mix_state: MixModerationState | null;
  suspended: boolean;
  suspended_until: Date | null;
  strikes: string;
}

interface TrackRow {
  recognised: boolean;
  title: string;
  creators: { name: string }[] | null;
}

interface ReportHistoryRow {
  reason: ReportReason;
  status: ReportStatus;
  outcome: string | null;
  note: string | null;
  created_at: Date;
  decided: string;
}

const trackLine = (row: { title: string; creators: { name: string }[] | null }) =>
  `${(row.creators ?? []).map((creator) => creator.name).join(', ')} – ${row.title}`;

/** The owner's strikes within the operators' window, read in the same statement as the target. */
const STRIKES = `(select count(*) from copyright_strike s where s.member_id = u.id
  and s.at > now() - make_interval(days => coalesce((select window_days from strike_policy where id = 1), ${STRIKE_WINDOW_DAYS_DEFAULT})))`;

/**
 * A queue item's target, its tracklist and recognition findings, and its report history (docs/trust.md#moderation):
 * at most four statements (the notice, the target, its tracks, its reports), so a page of the queue stays within the
 * statements its cost pays for.
 */
export async function itemDetails(
  em: EntityManager,
  kind: 'report' | 'copyright_notice',
  subjectId: string,
  viewerId: string,
): Promise<TrustItemView | null> {
  let target: { kind: ReportTargetKind; id: string } | null;
  let notice: NoticeView | null = null;
  if (kind === 'report') target = parseReportSubject(subjectId);
  else {
    const [row] = await em.execute<NoticeRow[]>(`${NOTICE_SELECT} where n.id::text = ?`, [subjectId]);
    if (!row) return null;
    notice = noticeView(row, viewerId);
    target = { kind: 'mix', id: row.mix_id };
  }
  if (!target) return null;
  const [facts] =
    target.kind === 'mix'
      ? await em.execute<TargetRow[]>(
          `select m.title as name, m.owner_id, coalesce(u.user_name, u.display_name) as owner_name, m.moderation_state as mix_state,
             ${suspendedSql('u')} as suspended, u.suspended_until, ${STRIKES} as strikes
             from mix m join app_user u on u.id = m.owner_id where m.id = ?`,
          [target.id],
        )
      : await em.execute<TargetRow[]>(
          `select coalesce(u.user_name, u.display_name) as name, u.id as owner_id, coalesce(u.user_name, u.display_name) as owner_name,
             null as mix_state, ${suspendedSql('u')} as suspended, u.suspended_until, ${STRIKES} as strikes
             from app_user u where u.id = ?`,
          [target.id],
        );
  const tracks =
    target.kind === 'mix'
      ? await em.execute<TrackRow[]>(
          `select * from (
             (select true as recognised, t.title, t.creators, r.start as at from recognition_result r join track t on t.id = r.track_id
               where r.mix_id = ? order by r.start limit 100)
             union all
             (select false, t.title, t.creators, mt.position from mix_track mt join track t on t.id = mt.track_id
               where mt.mix_id = ? order by mt.position limit 100)) tracks
           order by recognised, at`,
          [target.id, target.id],
        )
      : [];
  const reports = await em.execute<ReportHistoryRow[]>(
    `select reason, status, outcome, note, created_at, count(*) filter (where status <> 'open') over () as decided
       from content_report where target_kind = ? and target_id = ? order by created_at desc limit ?`,
    [target.kind, target.id, HISTORY_SHOWN + 1],
  );
  const latestOpen = reports.find((report) => report.status === 'open') ?? null;
  return {
    targetKind: target.kind,
    targetId: target.id,
    targetName: facts?.name ?? null,
    mixState: facts?.mix_state ?? null,
    ownerId: facts?.owner_id ?? null,
    ownerName: facts?.owner_name ?? null,
    memberSuspended: facts?.suspended ?? false,
    memberSuspendedUntil: facts?.suspended_until ? new Date(facts.suspended_until) : null,
    reason: kind === 'report' ? (latestOpen?.reason ?? null) : null,
    note: kind === 'report' ? (latestOpen?.note ?? null) : null,
    recognisedTracks: [...new Set(tracks.filter((track) => track.recognised).map(trackLine))],
    tracklist: tracks.filter((track) => !track.recognised).map(trackLine),
    earlierReports: Number(reports[0]?.decided ?? 0),
    reportHistory: reports
      .filter((report) => report.status !== 'open')
      .slice(0, HISTORY_SHOWN)
      .map((report) => ({ reason: report.reason, status: report.status, outcome: report.outcome, createdAt: new Date(report.created_at) })),
    strikes: Number(facts?.strikes ?? 0),
    notice,
  };
}
