import type { FastifyInstance } from 'fastify';
import { viewerOf } from '../http/viewer.js';
import { SAVED_MIXES_PAGE_SIZE } from '../modules/library/library.inputs.js';
import type { Services } from '../services.js';
import { requireViewer } from '../shared/viewer.js';
import { mixesWire, savedTrackWire } from './mixes.presenters.js';
import { bodyOf } from './request.js';

/** REST sends a saved track's id as `trackId`; get-tracks-by-id may send several as `trackIds`. */
function trackIdsOf(body: Record<string, unknown>): unknown {
  if (body.trackIds !== undefined) return body.trackIds;
  return body.trackId === undefined ? undefined : [body.trackId];
}

/** Library rows: saved mixes, saved tracks, the current mix and position (docs/library.md#calls). */
export function libraryRoutes(services: Services) {
  const { library } = services;
  return async (app: FastifyInstance) => {
    app.post<{ Params: { id: string } }>('/user/save-mix/:id', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      await library.saveMix(viewer.id, request.params.id);
      return { message: 'Mix saved', saved: true, mix_id: request.params.id };
    });

    app.post<{ Params: { id: string } }>('/user/remove-saved-mix/:id', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      await library.removeSavedMix(viewer.id, request.params.id);
      return { message: 'Mix removed from saved mixes', saved: false, mix_id: request.params.id };
    });

    app.get<{ Querystring: { page?: string } }>('/user/saved-mixes-by-me', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      const saved = await library.savedMixes(viewer.id, { page: request.query.page, limit: SAVED_MIXES_PAGE_SIZE });
      return { saved_mixes_by_me: await mixesWire(services, saved.items, viewer.id), count: await saved.totalCount };
    });

    const savedTracksAnswer = (userId: string, saved: Awaited<ReturnType<typeof library.savedTracks>>) => ({
      user: { _id: userId, saved_tracks: saved.map(savedTrackWire) },
    });

    app.post('/user/save-track', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      return savedTracksAnswer(viewer.id, await library.saveTrack(viewer.id, bodyOf(request).trackId));
    });

    app.post('/user/remove-track', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      return savedTracksAnswer(viewer.id, await library.removeSavedTrack(viewer.id, bodyOf(request).trackId));
    });

    app.post('/user/get-tracks-by-id', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      return savedTracksAnswer(viewer.id, await library.savedTracks(viewer.id, trackIdsOf(bodyOf(request))));
    });

    app.post('/user/save-current-mix', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      const body = bodyOf(request);
      // The player may send the whole mix it holds, or just its id.
      const currentMix =
        typeof body.current_mix === 'object' && body.current_mix !== null ? (body.current_mix as { _id?: unknown })._id : body.current_mix;
      const user = await library.saveCurrentMix(viewer.id, currentMix, body.current_mix_pos);
      return { current_mix: user.currentMix?.id ?? null, current_mix_pos: user.currentMixPos };
    });
  };
}
