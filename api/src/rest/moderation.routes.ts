import type { FastifyInstance } from 'fastify';
import { viewerOf } from '../http/viewer.js';
import type { AuditEntryView, QueueItemView } from '../modules/moderation/moderation.service.js';
import type { Services } from '../services.js';
import { requireViewer } from '../shared/viewer.js';
import { bodyOf, restLimit } from './request.js';

const itemWire = (item: QueueItemView) => ({
  id: item.id,
  kind: item.kind,
  subject_id: item.subjectId,
  summary: item.summary,
  links: item.links,
  raised_by: item.raisedBy ? { id: item.raisedBy.id, user_name: item.raisedBy.userName, display_name: item.raisedBy.displayName } : null,
  status: item.status,
  opened_at: item.openedAt,
  decided_at: item.decidedAt,
  reason: item.reason,
});

const auditWire = (entry: AuditEntryView) => ({
  id: entry.id,
  actor_id: entry.actorId,
  actor_name: entry.actorName,
  action: entry.action,
  target_kind: entry.targetKind,
  target_id: entry.targetId,
  target_name: entry.targetName,
  reason: entry.reason,
  at: entry.at,
});

/** The moderation queue, the audit log and the moderator role (docs/moderation.md#rest-paths). */
export function moderationRoutes(services: Services) {
  const { moderation } = services;
  return async (app: FastifyInstance) => {
    app.get<{ Querystring: Record<string, string> }>('/moderation/queue', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      const { status, page, limit } = request.query;
      const result = await moderation.queue(viewer.id, { status, page, first: restLimit(limit) });
      return { total: result.totalCount, page: result.page, items: result.items.map(itemWire) };
    });

    app.post<{ Params: { id: string } }>('/moderation/queue/:id/decision', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      const body = bodyOf(request);
      return itemWire(await moderation.decide(viewer.id, { itemId: request.params.id, decision: body.decision, reason: body.reason }));
    });

    app.get<{ Querystring: Record<string, string> }>('/moderation/audit', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      const { page, limit } = request.query;
      const result = await moderation.audit(viewer.id, { page, first: restLimit(limit) });
      return { total: result.totalCount, page: result.page, items: result.items.map(auditWire) };
    });

    app.post('/moderation/moderators', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      const body = bodyOf(request);
      return { changed: await moderation.setModerator(viewer.id, { member: body.member, grant: body.grant, reason: body.reason }) };
    });
  };
}
