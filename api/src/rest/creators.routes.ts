import type { FastifyInstance } from 'fastify';
import { viewerOf } from '../http/viewer.js';
import type { ClaimView } from '../modules/creators/creators.service.js';
import type { Services } from '../services.js';
import { requireViewer } from '../shared/viewer.js';
import { bodyOf } from './request.js';

const claimWire = (claim: ClaimView) => ({
  id: claim.id,
  subject: claim.subject,
  subject_name: claim.subjectName,
  evidence: claim.evidence,
  note: claim.note,
  status: claim.status,
  is_dispute: claim.queueKind === 'claim_dispute',
  created_at: claim.createdAt,
  decided_at: claim.decidedAt,
  reason: claim.reason,
});

/** Creator claims beside GraphQL's claimCreator (docs/creators.md#rest-paths). */
export function creatorRoutes(services: Services) {
  const { creators } = services;
  return async (app: FastifyInstance) => {
    app.post('/creator/claim', async (request, reply) => {
      const viewer = requireViewer(await viewerOf(services, request));
      const body = bodyOf(request);
      const claim = await creators.claim(viewer.id, {
        subject: body.subject,
        name: body.name,
        trackId: body.track_id,
        evidence: body.evidence,
        note: body.note,
      });
      return reply.status(201).send(claimWire(claim));
    });

    app.get('/creator/claims', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      return { claims: (await creators.claimsOf(viewer.id)).map(claimWire) };
    });
  };
}
