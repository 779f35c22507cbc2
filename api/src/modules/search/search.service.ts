import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm.js';
import { encodeCursor } from '../../shared/cursor.js';
import { parseInput } from '../../shared/inputs.js';
import { type MixesService, type MixView } from '../mixes/index.js';
import { TRACK_COLUMNS, type TrackRow, type TrackView, trackView } from '../tracks/index.js';
import { type IUser, User } from '../users/index.js';
import { SearchErrors } from './search.errors.js';
import {
  LENGTH_SECONDS,
  restSearchInput,
  SEARCH_MAX_RESULTS,
  type SearchRequest,
  SUGGESTIONS_MAX,
  searchInput,
  suggestInput,
} from './search.inputs.js';
import { searchPolicy } from './search.policy.js';
import { SearchDb } from './search-db.js';
import { pgArray } from './search-index.js';
import { SearchIndexer } from './search-indexer.js';

import { findHits, type Hit, type SearchFilters } from './search-query.js';
import type { Kind } from './search-text.js';
import { SearchVocabulary } from './search-vocabulary.js';

/** One result: what was found, ready to show. */
export type SearchItem =
  | { kind: 'mix'; cursor: string; mix: MixView; viaTrackId: string | null }
  | { kind: 'member'; cursor: string; member: IUser }
  | { kind: 'track'; cursor: string; track: TrackView };

export interface SearchPage {
  items: SearchItem[];
  /** Matches among the ranked results a search looks through (at most SEARCH_MAX_RESULTS). */
  totalCount: number;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
}

export interface Suggestions {
  mixes: SearchItem[];
  members: SearchItem[];
  tracks: SearchItem[];
}

/** A result's cursor: its place in the ranking (search.inputs.ts reads it back). */
const encodeOffset = (offset: number) => encodeCursor([String(offset)]);

const NO_FILTERS: SearchFilters = { genre: null, withinKm: null, origin: null, minSeconds: null, maxSeconds: null };

/** Search over mixes, members and tracks (docs/search.md), and the indexer that keeps it current. */
export class SearchService {
  readonly indexer: SearchIndexer;
  private readonly vocabulary: SearchVocabulary;
  private readonly db: SearchDb;

  constructor(
    private readonly orm: Orm,
    private readonly mixes: Pick<MixesService, 'viewsByIds'>,
    connectionString: string,
    private readonly log: { warn(object: object, message: string): void },
  ) {
    this.db = new SearchDb(connectionString);
    this.vocabulary = new SearchVocabulary((sql, params) => this.em().execute(sql, params));
    this.indexer = new SearchIndexer(
      () => this.em(),
      connectionString,
      log,
      (firstId) => {
        this.vocabulary.refresh(firstId).catch((error: unknown) => this.log.warn({ err: error }, 'search: vocabulary refresh failed'));
      },
    );
  }

  private em(): EntityManager {
    return this.orm.em.fork() as EntityManager;
  }

  /** A page of results, best first (GraphQL `search`). */
  async search(raw: unknown, viewerId: string | null): Promise<SearchPage> {
    return this.page(parseInput(searchInput, raw), viewerId);
  }

  /** A page of results by page number (REST GET /api/search). */
  async searchPage(raw: unknown, viewerId: string | null): Promise<SearchPage> {
    return this.page(parseInput(restSearchInput, raw), viewerId);
  }

  /** At most eight results for the text typed so far, grouped by kind, at most four of a kind. */
  async suggest(raw: unknown): Promise<Suggestions> {
    const { q } = parseInput(suggestInput, raw);
    const hits = await findHits(this.db, await this.vocabulary.ready(), q, ['mix', 'member', 'track'], NO_FILTERS, 40, false);
    const taken: Hit[] = [];
    const perKind = new Map<Kind, number>();
    for (const hit of hits) {
      if (taken.length >= SUGGESTIONS_MAX) break;
      const count = perKind.get(hit.kind) ?? 0;
      if (count >= SUGGESTIONS_MAX / 2) continue;
      perKind.set(hit.kind, count + 1);
      taken.push(hit);
    }
    const items = await this.hydrate(taken, 0);
    return {
      mixes: items.filter((item) => item.kind === 'mix'),
      members: items.filter((item) => item.kind === 'member'),
      tracks: items.filter((item) => item.kind === 'track'),
    };
  }

  private async page(
    request: Pick<SearchRequest, 'q' | 'types' | 'first' | 'offset' | 'genre' | 'withinKm' | 'length'>,
    viewerId: string | null,
  ): Promise<SearchPage> {
    if (request.offset >= SEARCH_MAX_RESULTS) throw SearchErrors.tooDeep(SEARCH_MAX_RESULTS);
    const filters = await this.filters(this.em(), request, viewerId);
    const hits = (await findHits(this.db, await this.vocabulary.ready(), request.q, request.types, filters, SEARCH_MAX_RESULTS)).slice(
      0,
      SEARCH_MAX_RESULTS,
    );
    const window = hits.slice(request.offset, request.offset + request.first);
    return {
      items: await this.hydrate(window, request.offset),
      totalCount: hits.length,
      hasNextPage: request.offset + request.first < hits.length,
      hasPreviousPage: request.offset > 0,
    };
  }

  private async filters(
    em: EntityManager,
    request: Pick<SearchRequest, 'genre' | 'withinKm' | 'length'>,
    viewerId: string | null,
  ): Promise<SearchFilters> {
    const length = request.length ? LENGTH_SECONDS[request.length] : null;
    let origin: SearchFilters['origin'] = null;
    if (request.withinKm) {
      const viewer = viewerId ? await em.findOne(User, viewerId, { fields: ['cellLatitude', 'cellLongitude'] }) : null;
      origin = searchPolicy.distanceOrigin(
        viewer ? { cellLatitude: viewer.cellLatitude ?? null, cellLongitude: viewer.cellLongitude ?? null } : null,
      );
      if (!origin) throw SearchErrors.noPlace();
    }
    return {
      genre: request.genre ?? null,
      withinKm: request.withinKm ?? null,
      origin,
      minSeconds: length?.min ?? null,
      maxSeconds: length?.max ?? null,
    };
  }

  /** The hits' mixes, members and tracks, one statement per kind on the page, at once; a row gone since is left out. */
  private async hydrate(hits: readonly Hit[], offset: number): Promise<SearchItem[]> {
    const ids = (kind: Kind) => hits.filter((hit) => hit.kind === kind).map((hit) => hit.id);
    const mixIds = ids('mix');
    const memberIds = ids('member');
    const trackIds = ids('track');
    const [mixes, members, tracks] = await Promise.all([
      mixIds.length > 0 ? this.mixes.viewsByIds(this.em(), mixIds) : new Map<string, MixView>(),
      (async () =>
        new Map(
          (memberIds.length > 0 ? await this.em().find(User, { id: { $in: memberIds } }) : []).map((user) => [user.id, user] as const),
        ))(),
      (async () => {
        const rows =
          trackIds.length > 0
            ? await this.em().execute<TrackRow[]>(`select ${TRACK_COLUMNS} from track t where t.id = any(?::uuid[])`, [pgArray(trackIds)])
            : [];
        return new Map<string, TrackView>(rows.map((row) => [row.id, trackView(row)] as const));
      })(),
    ]);
    const items: SearchItem[] = [];
    hits.forEach((hit, index) => {
      const cursor = encodeOffset(offset + index);
      const mix = hit.kind === 'mix' ? mixes.get(hit.id) : undefined;
      const member = hit.kind === 'member' ? members.get(hit.id) : undefined;
      const track = hit.kind === 'track' ? tracks.get(hit.id) : undefined;
      if (mix) items.push({ kind: 'mix', cursor, mix, viaTrackId: hit.viaTrackId });
      else if (member) items.push({ kind: 'member', cursor, member });
      else if (track) items.push({ kind: 'track', cursor, track });
    });
    return items;
  }

  async start(): Promise<void> {
    await this.indexer.start();
    // Loaded now rather than on the first search (seconds at a million documents); a failure is retried by that search.
    this.vocabulary.ready().catch((error: unknown) => this.log.warn({ err: error }, 'search: vocabulary not loaded'));
  }

  async close(): Promise<void> {
    await this.indexer.close();
    await this.db.close();
  }
}
