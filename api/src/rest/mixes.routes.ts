import type { FastifyInstance, FastifyReply } from 'fastify';
import { viewerOf } from '../http/viewer.js';
import type { TracklistEntry } from '../modules/mixes/mix.inputs.js';
import type { Services } from '../services.js';
import { NotFoundError } from '../shared/errors.js';
import { requireViewer } from '../shared/viewer.js';
import { mixDetailWire, mixesWire, mixTrackWire, mixWire, tracklistVersionWire } from './mixes.presenters.js';
import { type Body, bodyOf } from './request.js';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Names from the documented `creators` (text, or a list of text or {name}) or `artists` ({name} list). */
function namesOf(value: unknown): string[] | undefined {
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value)) return undefined;
  return value.map((item) => (isRecord(item) ? item.name : item)).filter((name): name is string => typeof name === 'string');
}

/**
 * "Upload track entry" (docs/public-api.md#wire-names) (creators, name, uuid, is_manual, artists, label, album.cover) with "Track in a mix"'s
 * start_time and end_time onto the service's entry; the chosen catalogue track is `uuid` (or `track`, its id).
 */
function tracklistEntryOf(raw: unknown): TracklistEntry {
  const entry = isRecord(raw) ? raw : {};
  return {
    title: entry.name ?? entry.title,
    creators: namesOf(entry.creators) ?? namesOf(entry.artists),
    catalogueTrackId: entry.uuid ?? entry.track,
    isManual: entry.is_manual,
    label: isRecord(entry.label) ? entry.label.name : entry.label,
    cover: isRecord(entry.album) ? entry.album.cover : undefined,
    startTime: entry.start_time,
    endTime: entry.end_time,
  };
}

const mixIdOf = (body: Body) => body.mix_id ?? body.id;

/** The documented mix pages answer `mix_found: false` with the reason when there is no such mix (or it was removed). */
function mixNotFound(reply: FastifyReply, error: NotFoundError) {
  return reply.status(404).send({ mix_found: false, err: error.message, error: error.message, message: error.message, status: 404 });
}

/** Mix rows: the feed, single mixes (private, public, the upload's draft), mixes by member, tracklist, publish, deactivate (docs/public-api.md#rest-paths). */
export function mixRoutes(services: Services) {
  const { mixes } = services;
  return async (app: FastifyInstance) => {
    // The documented carousel shows "n of count"; rather than every match at once, the body may page with `page` (from 0)
    // and `limit` (1 to 50, default 20). `count` is always the total.
    app.post('/mix/get-mixes-by-genre-and-distance', async (request) => {
      const viewer = await viewerOf(services, request);
      const body = bodyOf(request);
      const found = await mixes.feed({ genre: body.genre, radiusKm: body.search_radius, from: body.from_point }, viewer?.id ?? null, {
        page: body.page,
        limit: body.limit,
      });
      return {
        data: await mixesWire(services, found.items, viewer?.id ?? null),
        count: await found.totalCount,
        // Beyond the original answer: true when more match than were counted (count is then "count+").
        count_is_lower_bound: found.totalCountIsLowerBound,
      };
    });

    app.get<{ Params: { user_name: string; page: string }; Querystring: { mix_id_to_exclude?: string } }>(
      '/mix/by-user/:user_name/:page',
      async (request) => {
        const viewer = await viewerOf(services, request);
        const page = { page: request.params.page };
        const found = await mixes.byUser(request.params.user_name, viewer?.id ?? null, page, request.query.mix_id_to_exclude);
        return { mixes: await mixesWire(services, found.items, viewer?.id ?? null), count: await found.totalCount };
      },
    );

    app.get<{ Params: { id: string } }>('/mix/public/:id', async (request, reply) => {
      try {
        const detail = await mixes.detail(request.params.id, null);
        return { mix_found: true, current_mix: await mixWire(services, detail, null) };
      } catch (error) {
        if (error instanceof NotFoundError) return mixNotFound(reply, error);
        throw error;
      }
    });

    app.get<{ Params: { id: string } }>('/mix/upload/:id', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      const mix = await mixes.draftForPayment(viewer.id, request.params.id);
      const keptUntil = await mixes.draftKeptUntil(viewer.id, mix.id);
      return { current_mix: { ...(await mixWire(services, { mix, distanceKm: null }, viewer.id)), draft_kept_until: keptUntil } };
    });

    app.post('/mix/update-mix', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      const body = bodyOf(request);
      const entries = Array.isArray(body.tracks) ? body.tracks.map(tracklistEntryOf) : body.tracks;
      const tracklist = await mixes.setTracklist(viewer.id, mixIdOf(body), entries);
      return { tracks: tracklist.map(mixTrackWire) };
    });

    app.post('/mix/publish-mix', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      const body = bodyOf(request);
      const mix = await services.payments.publish(viewer.id, { mixId: mixIdOf(body), code: body.code, sessionId: body.session_id });
      return { message: 'Mix published', current_mix: await mixWire(services, { mix, distanceKm: null }, viewer.id) };
    });

    app.get<{ Params: { id: string } }>('/mix/:id', async (request, reply) => {
      const viewer = requireViewer(await viewerOf(services, request));
      try {
        const detail = await mixes.detail(request.params.id, viewer.id);
        return await mixDetailWire(services, detail, viewer.id);
      } catch (error) {
        if (error instanceof NotFoundError) return mixNotFound(reply, error);
        throw error;
      }
    });

    app.get<{ Params: { id: string }; Querystring: { first?: string } }>('/mix/tracklist-versions/:id', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      const versions = await mixes.versions.ofMix(viewer.id, { mixId: request.params.id, first: request.query.first });
      return { versions: versions.map(tracklistVersionWire) };
    });

    app.patch<{ Params: { id: string } }>('/user/deactivate-mix/:id', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      await mixes.deactivate(viewer.id, request.params.id);
      return { message: 'Mix deactivated', _id: request.params.id };
    });
  };
}
