import type { FastifyInstance } from 'fastify';
import { viewerOf } from '../http/viewer.js';
import type { NoticeView, ReportView, TrustItemView } from '../modules/trust/trust.views.js';
import type { Services } from '../services.js';
import { requireViewer } from '../shared/viewer.js';
import { bodyOf, restLimit } from './request.js';

const reportWire = (report: ReportView) => ({
  id: report.id,
  target_kind: report.targetKind,
  target_id: report.targetId,
  target_name: report.targetName,
  reason: report.reason,
  note: report.note,
  status: report.status,
  outcome: report.outcome,
  created_at: report.createdAt,
  decided_at: report.decidedAt,
});

const noticeWire = (notice: NoticeView) => ({
  id: notice.id,
  mix_id: notice.mixId,
  mix_title: notice.mixTitle,
  track_id: notice.trackId,
  track_title: notice.trackTitle,
  claimed_name: notice.claimedName,
  text: notice.text,
  status: notice.status,
  counter_text: notice.counterText,
  countered_at: notice.counteredAt,
  created_at: notice.createdAt,
  decided_at: notice.decidedAt,
  is_filer: notice.isFiler,
  is_owner: notice.isOwner,
  history: notice.history,
});

const itemDetailsWire = (details: TrustItemView | null) =>
  details && {
    target_kind: details.targetKind,
    target_id: details.targetId,
    target_name: details.targetName,
    mix_state: details.mixState,
    owner_id: details.ownerId,
    owner_name: details.ownerName,
    member_suspended: details.memberSuspended,
    member_suspended_until: details.memberSuspendedUntil,
    reason: details.reason,
    note: details.note,
    recognised_tracks: details.recognisedTracks,
    tracklist: details.tracklist,
    earlier_reports: details.earlierReports,
    report_history: details.reportHistory.map((entry) => ({
      reason: entry.reason,
      status: entry.status,
      outcome: entry.outcome,
      created_at: entry.createdAt,
    })),
    strikes: details.strikes,
    notice: details.notice && noticeWire(details.notice),
  };

const pageOf = (query: Record<string, string>) => ({
  page: query.page,
  first: restLimit(query.limit),
});

/** Reports, copyright notices, moderators' actions, the strike policy and the transparency report (docs/trust.md#rest-paths). */
export function trustRoutes(services: Services) {
  const { trust } = services;
  return async (app: FastifyInstance) => {
    const viewerIdOf = async (request: Parameters<typeof viewerOf>[1]) => requireViewer(await viewerOf(services, request)).id;

    app.post('/reports', async (request, reply) => {
      const body = bodyOf(request);
      const report = await trust.report(await viewerIdOf(request), {
        targetKind: body.target_kind,
        targetId: body.target_id,
        reason: body.reason,
        note: body.note,
      });
      return reply.status(201).send(reportWire(report));
    });

    app.get<{ Querystring: Record<string, string> }>('/reports/mine', async (request) => {
      const result = await trust.myReports(await viewerIdOf(request), pageOf(request.query));
      return { total: result.totalCount, page: result.page, items: result.items.map(reportWire) };
    });

    app.post('/copyright-notices', async (request, reply) => {
      const body = bodyOf(request);
      const notice = await trust.fileNotice(await viewerIdOf(request), { mixId: body.mix_id, trackId: body.track_id, text: body.text });
      return reply.status(201).send(noticeWire(notice));
    });

    app.get('/copyright-notices', async (request) => (await trust.myNotices(await viewerIdOf(request))).map(noticeWire));

    app.get<{ Params: { id: string } }>('/copyright-notices/:id', async (request) =>
      noticeWire(await trust.notice(await viewerIdOf(request), { noticeId: request.params.id })),
    );

    app.post<{ Params: { id: string } }>('/copyright-notices/:id/counter-notice', async (request) =>
      noticeWire(await trust.counterNotice(await viewerIdOf(request), { noticeId: request.params.id, text: bodyOf(request).text })),
    );

    app.get('/upload-block', async (request) => ({ block: await trust.uploadBlockOf(await viewerIdOf(request)) }));

    app.post<{ Params: { id: string } }>('/moderation/queue/:id/action', async (request) => {
      const body = bodyOf(request);
      const item = await trust.moderate(await viewerIdOf(request), {
        itemId: request.params.id,
        action: body.action,
        reason: body.reason,
        suspendedUntil: body.suspended_until,
      });
      return { id: item.id, kind: item.kind, status: item.status, decided_at: item.decidedAt, reason: item.reason };
    });

    app.get<{ Params: { id: string } }>('/moderation/queue/:id/details', async (request) => {
      const viewerId = await viewerIdOf(request);
      const item = await services.moderation.item(viewerId, request.params.id);
      return itemDetailsWire(await trust.itemDetails(viewerId, item));
    });

    app.post<{ Params: { id: string } }>('/moderation/mixes/:id/restore', async (request) => ({
      restored: await trust.restoreMix(await viewerIdOf(request), { id: request.params.id, reason: bodyOf(request).reason }),
    }));

    app.post<{ Params: { id: string } }>('/moderation/members/:id/restore', async (request) => ({
      restored: await trust.restoreMember(await viewerIdOf(request), { id: request.params.id, reason: bodyOf(request).reason }),
    }));

    app.get<{ Querystring: Record<string, string> }>('/moderation/held-mixes', async (request) => {
      const result = await trust.heldMixes(await viewerIdOf(request), pageOf(request.query));
      return {
        total: result.totalCount,
        page: result.page,
        items: result.items.map((mix) => ({
          mix_id: mix.mixId,
          title: mix.title,
          owner_name: mix.ownerName,
          state: mix.state,
          reason: mix.reason,
          at: mix.at,
        })),
      };
    });

    app.get<{ Querystring: Record<string, string> }>('/moderation/suspended-members', async (request) => {
      const result = await trust.suspendedMembers(await viewerIdOf(request), pageOf(request.query));
      return {
        total: result.totalCount,
        page: result.page,
        items: result.items.map((member) => ({
          id: member.id,
          user_name: member.userName,
          display_name: member.displayName,
          suspended_at: member.suspendedAt,
          suspended_until: member.suspendedUntil,
          reason: member.reason,
        })),
      };
    });

    const policyWire = (policy: { strikeLimit: number; windowDays: number }) => ({
      strike_limit: policy.strikeLimit,
      window_days: policy.windowDays,
    });

    app.get('/strike-policy', async () => policyWire(await trust.strikePolicy()));

    app.put('/strike-policy', async (request) => {
      const body = bodyOf(request);
      return policyWire(
        await trust.setStrikePolicy(await viewerIdOf(request), {
          strikeLimit: body.strike_limit,
          windowDays: body.window_days,
          reason: body.reason,
        }),
      );
    });

    app.get<{ Querystring: Record<string, string> }>('/transparency', async (request) =>
      (await trust.transparency({ months: request.query.months })).map((month) => ({
        month: month.month,
        reports_received: month.reportsReceived,
        notices: month.notices,
        takedowns: month.takedowns,
        counter_notices: month.counterNotices,
        restorations: month.restorations,
        suspensions: month.suspensions,
      })),
    );
  };
}
