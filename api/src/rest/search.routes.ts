import type { FastifyInstance } from 'fastify';
import { viewerOf } from '../http/viewer.js';
import type { SearchItem } from '../modules/search/index.js';
import type { Services } from '../services.js';
import { mixesWire, trackWire } from './mixes.presenters.js';

/** Search (docs/search.md#calls): GET /api/search?q=&type=&page= and the suggestions as you type; public. */
export function searchRoutes(services: Services) {
  const itemsWire = async (items: SearchItem[], viewerId: string | null) => {
    const mixes = items.flatMap((item) => (item.kind === 'mix' ? [{ mix: item.mix, distanceKm: null }] : []));
    const mixWires = await mixesWire(services, mixes, viewerId);
    let mixAt = 0;
    return items.map((item) => {
      if (item.kind === 'mix') return { type: 'mix', mix: mixWires[mixAt++], via_track_id: item.viaTrackId };
      if (item.kind === 'member')
        return {
          type: 'member',
          member: {
            id: item.member.id,
            user_name: item.member.userName,
            display_name: item.member.displayName,
            image: services.users.imageUrl(item.member),
          },
        };
      return { type: 'track', track: trackWire(item.track) };
    });
  };
  return async (app: FastifyInstance) => {
    app.get<{ Querystring: Record<string, unknown> }>('/search', async (request) => {
      const viewerId = (await viewerOf(services, request))?.id ?? null;
      const query = request.query;
      const page = await services.search.searchPage(
        { q: query.q, type: query.type, page: query.page, genre: query.genre, within_km: query.within_km, length: query.length },
        viewerId,
      );
      return { results: await itemsWire(page.items, viewerId), count: page.totalCount, has_next_page: page.hasNextPage };
    });
    app.get<{ Querystring: Record<string, unknown> }>('/search/suggestions', async (request) => {
      const viewerId = (await viewerOf(services, request))?.id ?? null;
      const found = await services.search.suggest({ q: request.query.q });
      return {
        mixes: await itemsWire(found.mixes, viewerId),
        members: await itemsWire(found.members, viewerId),
        tracks: await itemsWire(found.tracks, viewerId),
      };
    });
  };
}
