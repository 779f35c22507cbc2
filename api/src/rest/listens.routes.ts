import type { FastifyInstance } from 'fastify';
import { viewerOf } from '../http/viewer.js';
import type { Services } from '../services.js';
import { requireViewer } from '../shared/viewer.js';
import { listenWire } from './mixes.presenters.js';
import { bodyOf } from './request.js';

/** Listen rows, plus heartbeats, the stats panel and the owner's listen records (docs/player-and-listens.md#calls). */
export function listenRoutes(services: Services) {
  const { listens } = services;
  return async (app: FastifyInstance) => {
    app.post<{ Params: { id: string } }>('/mix/play/:id', async (request) => {
      const viewer = await viewerOf(services, request);
      return { play_count: await listens.play(request.params.id, viewer?.id ?? null) };
    });

    app.post<{ Params: { id: string } }>('/mix/add-new-listen/:id', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      return listenWire(await listens.start(request.params.id, viewer.id, bodyOf(request).start));
    });

    // Beyond the original calls: players that heartbeat keep "listening now" right (a listen stops counting a minute after the last).
    app.post<{ Params: { id: string } }>('/mix/heartbeat-listen/:id', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      return listenWire(await listens.heartbeat(request.params.id, viewer.id));
    });

    app.post<{ Params: { id: string } }>('/mix/pause/:id', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      return listenWire(await listens.end(request.params.id, viewer.id, bodyOf(request).end));
    });

    app.post<{ Params: { id: string } }>('/mix/pause-listen/:id', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      return listenWire(await listens.end(request.params.id, viewer.id));
    });

    app.get<{ Params: { id: string } }>('/mix/stats/:id', async (request) => {
      const stats = await listens.stats.of(request.params.id);
      return { Listeners: stats.listeners, Listens: stats.listens, Hours: stats.hours, Saves: stats.saves, plays: stats.plays };
    });

    app.get<{ Params: { id: string } }>('/mix/listeners/:id', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      return { listeners: (await listens.stats.records(request.params.id, viewer.id)).map(listenWire) };
    });
  };
}
