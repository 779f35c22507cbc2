import type { EntityManager } from '@mikro-orm/postgresql';
import { parseInput } from '../../shared/inputs.js';
import { REPORTS_PER_HOUR } from '../../shared/rules.js';
import { VISIBLE_MIX_SQL } from '../mixes/index.js';
import type { Creator } from '../tracks/index.js';
import { activeMemberSql } from '../users/index.js';
import { TrustErrors } from './trust.errors.js';
import { counterNoticeInput, noticeIdInput, noticeInput, pageInput, reportInput } from './trust.inputs.js';
import { trustPolicy } from './trust.policy.js';
import { MY_NOTICES_MAX, type NoticeView, type Page, type ReportView } from './trust.views.js';
import { TrustModeration } from './trust-moderation.js';
import { type TrustPorts, tell } from './trust-ports.js';
import { NOTICE_SELECT, type NoticeRow, noticeView, REPORT_SELECT, type ReportRow, reportSubject, reportView } from './trust-reads.js';

const REPORT_SUMMARY = { mix: 'Report of a mix', member: 'Report of a member' } as const;

/**
 * Reports, copyright notices and counter-notices (docs/trust.md): what members do. Moderators' actions, the strike
 * policy and the transparency counts are `TrustModeration`'s, reached through the same service.
 */
export class TrustService extends TrustModeration {
  constructor(ports: TrustPorts) {
    super(ports);
  }

  /** A member reports a mix or a member: one open report per target, at most REPORTS_PER_HOUR an hour. */
  async report(viewerId: string, raw: Record<string, unknown>): Promise<ReportView> {
    const input = parseInput(reportInput, raw);
    return this.em().transactional(async (txEm) => {
      const em = txEm as EntityManager;
      // One reporter's reports one at a time: the hourly count and the open-report check cannot race.
      await em.execute('select pg_advisory_xact_lock(hashtext(?))', [`report:${viewerId}`]);
      const [recent] = await em.execute<{ count: string; oldest: Date | null }[]>(
        `select count(*) as count, min(created_at) as oldest from content_report where reporter_id = ? and created_at > now() - interval '1 hour'`,
        [viewerId],
      );
      if (Number(recent.count) >= REPORTS_PER_HOUR) {
        const oldest = recent.oldest ? new Date(recent.oldest).getTime() : Date.now();
        throw TrustErrors.tooManyReports(Math.max(1, Math.ceil((oldest + 3_600_000 - Date.now()) / 1000)));
      }
      if (!input.targetId) throw TrustErrors.targetNotFound();
      const [target] =
        input.targetKind === 'mix'
          ? await em.execute<{ owner_id: string; name: string }[]>(
              `select owner_id, title as name from mix where id = ? and ${VISIBLE_MIX_SQL}`,
              [input.targetId],
            )
          : await em.execute<{ owner_id: string; name: string }[]>(
              `select id as owner_id, coalesce(user_name, display_name) as name from app_user u where id = ? and ${activeMemberSql('u')}`,
              [input.targetId],
            );
      if (!target) throw TrustErrors.targetNotFound();
      if (target.owner_id === viewerId) throw TrustErrors.ownTarget();
      const [open] = await em.execute(
        `select 1 from content_report where reporter_id = ? and target_kind = ? and target_id = ? and status = 'open'`,
        [viewerId, input.targetKind, input.targetId],
      );
      if (open) throw TrustErrors.alreadyReported();
      const [row] = await em.execute<{ id: string }[]>(
        `insert into content_report (id, reporter_id, target_kind, target_id, reason, note, status, created_at)
         values (gen_random_uuid(), ?, ?, ?, ?, ?, 'open', clock_timestamp()) returning id`,
        [viewerId, input.targetKind, input.targetId, input.reason, input.note],
      );
      await this.ports.moderation.open(em, {
        kind: 'report',
        subjectId: reportSubject(input.targetKind, input.targetId),
        summary: `${REPORT_SUMMARY[input.targetKind]}: ${target.name}`,
        raisedBy: viewerId,
      });
      const [created] = await em.execute<ReportRow[]>(`${REPORT_SELECT} where r.id = ?`, [row.id]);
      return reportView(created);
    });
  }

  async myReports(viewerId: string, raw: { page?: unknown; first?: unknown }): Promise<Page<ReportView>> {
    const input = parseInput(pageInput, raw);
    const rows = await this.em().execute<(ReportRow & { total: string })[]>(
      `select *, count(*) over () as total from (${REPORT_SELECT} where r.reporter_id = ?) mine
        order by created_at desc, id limit ? offset ?`,
      [viewerId, input.first, input.page * input.first],
    );
    return { totalCount: Number(rows[0]?.total ?? 0), page: input.page, items: rows.map(reportView) };
  }

  /**
   * A verified creator or label of a track files a notice on a mix that plays it (its tracklist or recognition shows
   * it): the mix is hidden from everyone but its owner at once, and the owner is told with the notice's text.
   */
  async fileNotice(viewerId: string, raw: Record<string, unknown>): Promise<NoticeView> {
    const input = parseInput(noticeInput, raw);
    if (!input.mixId) throw TrustErrors.mixNotFound();
    if (!input.trackId) throw TrustErrors.trackNotFound();
    const em0 = this.em();
    const [track] = await em0.execute<{ title: string; creators: NoticeTrack['creators']; label: NoticeTrack['label'] }[]>(
      'select title, creators, label from track where id = ?',
      [input.trackId],
    );
    if (!track) throw TrustErrors.trackNotFound();
    const holds = await this.ports.holdsTrack(viewerId, { creators: track.creators ?? [], label: track.label ?? null });
    if (!holds) throw TrustErrors.notHolder();
    const { view, after } = await em0.transactional(async (txEm) => {
      const em = txEm as EntityManager;
      const [mix] = await em.execute<{ owner_id: string; title: string; in_mix: boolean }[]>(
        `select owner_id, title,
           exists (select 1 from mix_track where mix_id = mix.id and track_id = ?)
             or exists (select 1 from recognition_result where mix_id = mix.id and track_id = ?) as in_mix
           from mix where id = ? and status = 'published' and deactivated_at is null for update`,
        [input.trackId, input.trackId, input.mixId],
      );
      if (!mix) throw TrustErrors.mixNotFound();
      if (mix.owner_id === viewerId) throw TrustErrors.ownMix();
      trustPolicy.assertCanFile(holds, mix.in_mix);
      const claimed = await this.claimedNameFor(em, viewerId, track);
      const [notice] = await em.execute<{ id: string }[]>(
        `insert into copyright_notice (id, filer_id, mix_id, track_id, claimed_name, text, status, created_at)
         values (gen_random_uuid(), ?, ?, ?, ?, ?, 'open', clock_timestamp()) returning id`,
        [viewerId, input.mixId, input.trackId, claimed, input.text],
      );
      await em.execute(
        `update mix set moderation_state = 'hidden', moderation_reason = ?, moderated_at = clock_timestamp()
          where id = ? and moderation_state is null`,
        [`Copyright notice from ${claimed}`, input.mixId],
      );
      await this.ports.moderation.open(em, {
        kind: 'copyright_notice',
        subjectId: notice.id,
        summary: `Copyright notice from ${claimed} on “${mix.title}”`,
        raisedBy: viewerId,
      });
      await this.ports.moderation.record(em, {
        actorId: viewerId,
        action: 'notice.filed',
        targetKind: 'copyright_notice',
        targetId: notice.id,
        targetName: mix.title,
      });
      await this.ports.moderation.record(em, {
        actorId: viewerId,
        action: 'mix.hide',
        targetKind: 'mix',
        targetId: input.mixId ?? '',
        targetName: mix.title,
      });
      const told = await tell(this.ports, em, {
        recipientId: mix.owner_id,
        kind: 'MIX_NOTICE',
        detail: mix.title,
        subject: `Your mix “${mix.title}” was hidden after a copyright notice`,
        paragraphs: [
          `${claimed} filed a copyright notice on your mix “${mix.title}” for the track “${track.title}”. The mix is hidden from everyone but you until a moderator decides.`,
          `The notice says:\n${input.text}`,
          'If you believe the mix may stay, answer with a counter-notice from the notice’s page.',
        ],
        link: { href: `${this.ports.publicUrl}/notices/${notice.id}`, label: 'The notice and how to answer it' },
      });
      const [row] = await em.execute<NoticeRow[]>(`${NOTICE_SELECT} where n.id = ?`, [notice.id]);
      return { view: noticeView(row, viewerId), after: told };
    });
    await this.runAfter(after);
    return view;
  }

  /** The name the filer speaks for: the first of the track's credits they hold. */
  private async claimedNameFor(em: EntityManager, viewerId: string, track: NoticeTrack): Promise<string> {
    for (const creator of track.creators ?? []) {
      if (await this.ports.holdsTrack(viewerId, { creators: [creator], label: null })) return creator.name;
    }
    if (track.label && (await this.ports.holdsTrack(viewerId, { creators: [], label: track.label }))) return track.label.name;
    const [member] = await em.execute<{ name: string }[]>('select coalesce(user_name, display_name) as name from app_user where id = ?', [
      viewerId,
    ]);
    return member?.name ?? 'a rights holder';
  }

  /** The mix's owner answers an open notice; the filer is told, and a moderator decides. */
  async counterNotice(viewerId: string, raw: Record<string, unknown>): Promise<NoticeView> {
    const input = parseInput(counterNoticeInput, raw);
    if (!input.noticeId) throw TrustErrors.noticeNotFound();
    const noticeId = input.noticeId;
    const { view, after } = await this.em().transactional(async (txEm) => {
      const em = txEm as EntityManager;
      const [row] = await em.execute<NoticeRow[]>(`${NOTICE_SELECT} where n.id = ? for update of n`, [noticeId]);
      if (!row) throw TrustErrors.noticeNotFound();
      trustPolicy.assertCanCounter(viewerId, row.owner_id, row.status);
      await em.execute(
        `update copyright_notice set status = 'countered', counter_text = ?, countered_at = clock_timestamp() where id = ?`,
        [input.text, noticeId],
      );
      await this.ports.moderation.record(em, {
        actorId: viewerId,
        action: 'notice.countered',
        targetKind: 'copyright_notice',
        targetId: noticeId,
        targetName: row.mix_title,
      });
      const told = row.filer_id
        ? await tell(this.ports, em, {
            recipientId: row.filer_id,
            kind: 'NOTICE_COUNTERED',
            detail: row.mix_title,
            subject: `Your notice on “${row.mix_title}” was answered`,
            paragraphs: [`The owner of “${row.mix_title}” answered your copyright notice:\n${input.text}`, 'A moderator decides.'],
            link: { href: `${this.ports.publicUrl}/notices/${noticeId}`, label: 'The notice' },
          })
        : undefined;
      const [updated] = await em.execute<NoticeRow[]>(`${NOTICE_SELECT} where n.id = ?`, [noticeId]);
      return { view: noticeView(updated, viewerId), after: told };
    });
    await this.runAfter(after);
    return view;
  }

  /** One notice and its history, for its filer, the mix's owner and moderators. */
  async notice(viewerId: string, raw: Record<string, unknown>): Promise<NoticeView> {
    const input = parseInput(noticeIdInput, raw);
    if (!input.noticeId) throw TrustErrors.noticeNotFound();
    const em = this.em();
    const [row] = await em.execute<NoticeRow[]>(`${NOTICE_SELECT} where n.id = ?`, [input.noticeId]);
    if (!row) throw TrustErrors.noticeNotFound();
    trustPolicy.assertCanReadNotice(viewerId, row.filer_id, row.owner_id, await this.ports.roles.roleOf(viewerId));
    return noticeView(row, viewerId);
  }

  /** The notices the member filed and those on their mixes, newest first. */
  async myNotices(viewerId: string): Promise<NoticeView[]> {
    const em = this.em();
    const rows = await em.execute<NoticeRow[]>(
      `${NOTICE_SELECT} where n.filer_id = ? or m.owner_id = ? order by n.created_at desc limit ?`,
      [viewerId, viewerId, MY_NOTICES_MAX],
    );
    return rows.map((row) => noticeView(row, viewerId));
  }
}

interface NoticeTrack {
  creators: Creator[] | null;
  label: Creator | null;
}
