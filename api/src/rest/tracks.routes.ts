import type { FastifyInstance } from 'fastify';
import { viewerOf } from '../http/viewer.js';
import type { Services } from '../services.js';
import { requireViewer } from '../shared/viewer.js';
import { mixesWire, trackWire } from './mixes.presenters.js';
import { bodyOf } from './request.js';

/**
 * The track lookup in docs/upload.md#tracklist-lookup (the upload's step 2 to 3), and a track's page: the track, and the published mixes that play
 * it (newest first, numbered pages from 0, each mix with the track's `start_time` in it).
 */
export function trackRoutes(services: Services) {
  const { tracks } = services;
  return async (app: FastifyInstance) => {
    // The upload's step (a private screen), and the costliest read there is: members only.
    app.post('/track/acquire-track-information', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      const body = bodyOf(request);
      const forMix = body.mix_id === undefined ? undefined : { viewer, mixId: body.mix_id };
      const candidates = await tracks.lookup(body.tracks_array ?? body.tracks, forMix);
      return { status: 'success', data: candidates.map((row) => row.map(trackWire)) };
    });

    app.get<{ Params: { id: string } }>('/track/:id', async (request) => trackWire(await tracks.byId(request.params.id)));

    app.get<{ Params: { id: string; page: string } }>('/track/:id/mixes/:page', async (request) => {
      const viewer = await viewerOf(services, request);
      const viewerId = viewer?.id ?? null;
      const found = await services.mixes.byTrack(request.params.id, { page: request.params.page }, viewerId);
      const wires = await mixesWire(services, found.items, viewerId);
      return {
        mixes: wires.map((wire, index) => ({ ...wire, start_time: found.items[index]?.startTime ?? null })),
        count: await found.totalCount,
      };
    });
  };
}
