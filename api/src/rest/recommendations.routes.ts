import type { FastifyInstance } from 'fastify';
import { viewerOf } from '../http/viewer.js';
import type { Services } from '../services.js';
import { mixesWire } from './mixes.presenters.js';
import { restLimit } from './request.js';

/** The "For you" row (docs/home-feed.md#for-you): anyone; a visitor gets the week's popular mixes. */
export function recommendationRoutes(services: Services) {
  const { recommendations } = services;
  return async (app: FastifyInstance) => {
    app.get<{ Querystring: { limit?: string } }>('/mix/for-you', async (request) => {
      const viewer = await viewerOf(services, request);
      const viewerId = viewer?.id ?? null;
      const items = await recommendations.forYou(viewerId, { first: restLimit(request.query.limit) });
      const mixes = await mixesWire(
        services,
        items.map((item) => ({ mix: item.mix, distanceKm: item.distanceKm, savedByViewer: false })),
        viewerId,
      );
      return {
        data: items.map((item, index) => ({
          mix: mixes[index],
          reason: item.reason.kind,
          reason_text: item.reason.text,
          related_mix: item.relatedMixId ? { _id: item.relatedMixId, title: item.reason.relatedMixTitle } : null,
        })),
      };
    });
  };
}
