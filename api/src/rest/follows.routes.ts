import type { FastifyInstance } from 'fastify';
import { viewerOf } from '../http/viewer.js';
import type { FollowDirection } from '../modules/follows/follows.service.js';
import type { Services } from '../services.js';
import { requireViewer } from '../shared/viewer.js';
import { userWire } from './presenters.js';

/** Follow rows: the toggle (GET as documented, and POST) and the member's own follow lists (20 a page, from page 1) (docs/follows.md#calls). */
export function followRoutes(services: Services) {
  const { follows } = services;
  return async (app: FastifyInstance) => {
    // The documented GET stays for the original client; POST is the one to use, since link prefetchers may follow a GET.
    app.route<{ Params: { id: string } }>({
      method: ['GET', 'POST'],
      url: '/user/follow/:id',
      handler: async (request) => {
        const viewer = requireViewer(await viewerOf(services, request));
        return { code: await follows.toggle(viewer.id, request.params.id) };
      },
    });

    for (const direction of ['following', 'followers'] satisfies FollowDirection[]) {
      app.get<{ Params: { user_name: string; page: string } }>(`/user/get-${direction}/:user_name/:page`, async (request) => {
        const viewer = requireViewer(await viewerOf(services, request));
        const page = await follows.page(request.params.user_name, direction, { page: request.params.page }, viewer.id);
        return {
          count: page.count,
          results: page.results.map((entry) => ({ user: userWire(services, entry.user), distance: entry.distanceKm })),
        };
      });
    }
  };
}
