import type { EntityManager } from '@mikro-orm/postgresql';
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
}

const trackLine = (row: { title: string; creators: { name: string }[] | null }) =>
  `${(row.creators ?? []).map((creator) => creator.name).join(', ')} – ${row.title}`;

/** A queue item's target, recognition findings and report history (docs/trust.md#the-queue). */
export async function itemDetails(
  em: EntityManager,
  kind: 'report' | 'copyright_notice',
  subjectId: string,
  viewerId: string,
  strikesOf: (memberId: string) => Promise<number>,
): Promise<TrustItemView | null> {
  let target: { kind: ReportTargetKind; id: string } | null;
  let notice: NoticeView | null = null;
  if (kind === 'report') target = parseReportSubject(subjectId);
  else {
    const [row] = await em.execute<NoticeRow[]>(`${NOTICE_SELECT} where n.id::text = ?`, [subjectId]);
    if (!row) return null;
    notice = await noticeView(em, row, viewerId);
    target = { kind: 'mix', id: row.mix_id };
  }
  if (!target) return null;
  const [facts] =
    target.kind === 'mix'
      ? await em.execute<TargetRow[]>(
          `select m.title as name, m.owner_id, coalesce(u.user_name, u.display_name) as owner_name, m.moderation_state as mix_state,
             ${suspendedSql('u')} as suspended, u.suspended_until from mix m join app_user u on u.id = m.owner_id where m.id = ?`,
          [target.id],
        )
      : await em.execute<TargetRow[]>(
          `select coalesce(u.user_name, u.display_name) as name, u.id as owner_id, coalesce(u.user_name, u.display_name) as owner_name,
             null as mix_state, ${suspendedSql('u')} as suspended, u.suspended_until from app_user u where u.id = ?`,
          [target.id],
        );
  const recognised =
    target.kind === 'mix'
      ? await em.execute<{ title: string; creators: { name: string }[] | null }[]>(
          `select t.title, t.creators from recognition_result r join track t on t.id = r.track_id where r.mix_id = ? order by r.start limit 100`,
          [target.id],
        )
      : [];
  const tracklist =
    target.kind === 'mix'
      ? await em.execute<{ title: string; creators: { name: string }[] | null }[]>(
          'select t.title, t.creators from mix_track mt join track t on t.id = mt.track_id where mt.mix_id = ? order by mt.position limit 100',
          [target.id],
        )
      : [];
  const reports = await em.execute<
    { reason: ReportReason; status: ReportStatus; outcome: string | null; created_at: Date; note: string | null }[]
  >(
    'select reason, status, outcome, created_at, note from content_report where target_kind = ? and target_id = ? order by created_at desc limit ?',
    [target.kind, target.id, HISTORY_SHOWN + 1],
  );
  const [earlier] = await em.execute<{ count: string }[]>(
    `select count(*) as count from content_report where target_kind = ? and target_id = ? and status <> 'open'`,
    [target.kind, target.id],
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
    recognisedTracks: [...new Set(recognised.map(trackLine))],
    tracklist: tracklist.map(trackLine),
    earlierReports: Number(earlier?.count ?? 0),
    reportHistory: reports
      .filter((report) => report.status !== 'open')
      .slice(0, HISTORY_SHOWN)
      .map((report) => ({ reason: report.reason, status: report.status, outcome: report.outcome, createdAt: new Date(report.created_at) })),
    strikes: facts?.owner_id ? await strikesOf(facts.owner_id) : 0,
    notice,
  };
}
