import { type EntityDictionary, LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import type { Orm } from '../../db/orm.js';
import { decodeCursor, encodeCursor, isTimestampAndId, isUuid, timestampKeySql } from '../../shared/cursor.js';
import { GENRE_CODES, type GenreCode } from '../../shared/domain.js';
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError, PaymentRequiredError } from '../../shared/errors.js';
import { firstMessage } from '../../shared/validation.js';
import { FOLDERS, objectKey, type StorageDriver } from '../media/storage.js';
import { Entitlement } from '../payments/payment.entity.js';
import { type ITrack, Track } from '../tracks/track.entity.js';
import { type IUser, User } from '../users/user.entity.js';
import { type Location, parseLocation } from '../users/users.service.js';
import { type IMix, type MIX_STATUSES, Mix } from './mix.entity.js';
import { hostingEnds, TRACKLIST_MAX, TRACKLIST_MIN } from './mix-lifecycle.js';
import { MixTrack } from './mix-track.entity.js';

/** SQL for "anyone may see this mix": published, not deactivated, not expired. One definition for every list and page. */
export const VISIBLE_MIX_SQL = `status = 'published' and deactivated_at is null and (expires_at is null or expires_at > now())`;

/** The distance filter's ceiling (SPEC §9) and default; it means "everywhere" (see `feed`). */
export const FEED_MAX_RADIUS_KM = 20_000;
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 50;
/**
 * An all-genre radius page first walks the newest-first index, reading at most this many visible mixes and keeping
 * those inside the circle: enough for a page wherever the circle holds more than about 1 in 200 mixes. Where it holds
 * fewer, the page comes from the GiST index instead (then only a few hundred matches exist to sort). Either way a page
 * reads a few thousand index entries at most, and needs no count first.
 */
const WALK_LIMIT = 4_000;

export const messagesOf = {
  mixNotFound: 'Mix not found',
  notYourMix: 'Only the owner of this mix may change it',
  alreadyPublished: 'This mix is already published',
  noPoint: 'To filter by distance, share your location or send from_point {latitude, longitude}',
  radius: `search_radius must be a number of km from 0 to ${FEED_MAX_RADIUS_KM.toLocaleString('en')}`,
  tracklistSize: (count: number) => `A tracklist needs ${TRACKLIST_MIN} to ${TRACKLIST_MAX} tracks; this one has ${count}`,
  missingFields: (position: number) => `Missing: Empty fields (track ${position} needs an artist and a title)`,
  tracklistFirst: `Add ${TRACKLIST_MIN} to ${TRACKLIST_MAX} tracks before publishing`,
  invalidCode: 'Invalid code: Please try again or email us for a BETA code',
  paymentRequired: 'Publishing needs a payment or a BETA code',
} as const;

export interface NewDraft {
  ownerId: string;
  title: string;
  genre: string;
  /** File names already stored under the SPEC paths (mix/mix-images, mix/mix-audio). */
  cover: string;
  mp3: string;
  audioBytes?: number;
  durationSeconds?: number | null;
  bitrate?: number | null;
}

/** One entry of a tracklist as the uploader sends it (each skin maps its own wire names onto this). */
export interface TracklistEntry {
  title: unknown;
  creators: unknown;
  /** A catalogue track's id; entries without one (or marked manual) become manual catalogue tracks. */
  catalogueTrackId?: unknown;
  isManual?: unknown;
  label?: unknown;
  cover?: unknown;
}

/** A catalogue track as lists show it (plain data: lists of hundreds of tracks skip entity hydration). */
export type TrackView = Pick<ITrack, 'id' | 'title' | 'creators' | 'label' | 'cover' | 'isManual' | 'buy' | 'newRelease'>;

export interface MixTrackView {
  position: number;
  startTime: number | null;
  endTime: number | null;
  track: TrackView;
}

/** A mix as every page and list shows it: plain data read with one query, and its owner. */
export interface MixView {
  id: string;
  title: string;
  genre: string;
  cover: string;
  mp3: string;
  durationSeconds: number | null;
  latitude: number | null;
  longitude: number | null;
  status: (typeof MIX_STATUSES)[number];
  publishedAt: Date | null;
  expiresAt: Date | null;
  createdAt: Date;
  owner: IUser;
}

export interface FeedFilter {
  /** A SPEC genre code, or 'all' (the default). */
  genre?: unknown;
  /** 0 to 20,000 km (the default, meaning everywhere). */
  radiusKm?: unknown;
  /** Where distances are measured from; the viewer's stored location when absent. */
  from?: unknown;
}

/** Keyset paging (`after` a cursor) for GraphQL, or page offsets for the SPEC's numbered REST pages. */
export interface PageRequest {
  first?: unknown;
  after?: string | null;
  offset?: number;
}

export interface MixListItem {
  mix: MixView;
  /** Kilometres from the feed's point or the viewer; null when either place is unknown or the viewer owns the mix. */
  distanceKm: number | null;
  cursor: string;
}

export interface MixPage {
  items: MixListItem[];
  /**
   * How many match across all pages. Counting can take longer than the page itself, so it runs alongside: the page's
   * mixes (and what callers load for them) need not wait for it.
   */
  totalCount: Promise<number>;
  hasNextPage: boolean;
}

export interface MixDetail {
  mix: MixView;
  distanceKm: number | null;
  isOwner: boolean;
}

/**
 * The columns of a MixView: the mix as `m` and its owner as `u` (joined in the same statement), the owner as one JSON
 * object that the ORM maps to a User (without the password hash, which no page needs).
 */
const MIX_COLUMNS = `m.id, m.title, m.genre, m.cover, m.mp3, m.duration_seconds, m.latitude, m.longitude, m.status,
  m.published_at, m.expires_at, m.created_at, to_jsonb(u) - 'password_hash' as owner`;
const WITH_OWNER = 'join app_user u on u.id = m.owner_id';

interface MixRow {
  id: string;
  owner: EntityDictionary<IUser>;
  title: string;
  genre: string;
  cover: string;
  mp3: string;
  duration_seconds: number | null;
  latitude: number | null;
  longitude: number | null;
  status: MixView['status'];
  published_at: Date | string | null;
  expires_at: Date | string | null;
  created_at: Date | string;
}

interface PageRow extends MixRow {
  sort_key: string;
  distance_m: number | null;
}

/** The columns of a TrackView, read as `t`. */
export const TRACK_COLUMNS = 't.id, t.title, t.creators, t.label, t.cover, t.is_manual, t.buy, t.new_release';

export interface TrackRow {
  id: string;
  title: string;
  creators: ITrack['creators'];
  label: ITrack['label'];
  cover: string | null;
  is_manual: boolean;
  buy: boolean;
  new_release: boolean;
}

export const trackView = (row: TrackRow): TrackView => ({
  id: row.id,
  title: row.title,
  creators: row.creators,
  label: row.label,
  cover: row.cover,
  isManual: row.is_manual,
  buy: row.buy,
  newRelease: row.new_release,
});

const dateOrNull = (value: Date | string | null) => (value === null ? null : new Date(value));

/** The MixView of an entity with its owner loaded (after a change made through the ORM). */
export function mixView(mix: IMix): MixView {
  return {
    id: mix.id,
    title: mix.title,
    genre: mix.genre,
    cover: mix.cover,
    mp3: mix.mp3,
    durationSeconds: mix.durationSeconds ?? null,
    latitude: mix.latitude ?? null,
    longitude: mix.longitude ?? null,
    status: mix.status,
    publishedAt: mix.publishedAt ?? null,
    expiresAt: mix.expiresAt ?? null,
    createdAt: mix.createdAt,
    owner: mix.owner,
  };
}

export function parseGenre(value: unknown): GenreCode {
  if (typeof value !== 'string' || !(GENRE_CODES as string[]).includes(value)) {
    throw new InvalidInputError(`Unknown genre; use one of: ${GENRE_CODES.join(', ')}`);
  }
  return value as GenreCode;
}

function parseGenreFilter(value: unknown): GenreCode | 'all' {
  if (value === undefined || value === null || value === 'all') return 'all';
  if (typeof value !== 'string' || !(GENRE_CODES as string[]).includes(value)) {
    throw new InvalidInputError(`Unknown genre; use all or one of: ${GENRE_CODES.join(', ')}`);
  }
  return value as GenreCode;
}

function parseRadius(value: unknown): number {
  if (value === undefined || value === null) return FEED_MAX_RADIUS_KM;
  const radius = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof radius !== 'number' || !Number.isFinite(radius) || radius < 0 || radius > FEED_MAX_RADIUS_KM) {
    throw new InvalidInputError(messagesOf.radius);
  }
  return radius;
}

export function parsePage(page: PageRequest): { first: number; after: string[] | null; offset: number } {
  const first = page.first ?? DEFAULT_PAGE_SIZE;
  if (typeof first !== 'number' || !Number.isInteger(first) || first < 1 || first > MAX_PAGE_SIZE) {
    throw new InvalidInputError(`first must be a whole number from 1 to ${MAX_PAGE_SIZE}`);
  }
  const offset = page.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0) throw new InvalidInputError('page must be a whole number from 0');
  return { first, after: page.after ? decodeCursor(page.after, isTimestampAndId) : null, offset };
}

// A blank cover is no cover; anything else must be a web address an <img> can load.
const coverUrl = z
  .string()
  .trim()
  .max(300)
  .refine((value) => value === '' || (URL.canParse(value) && ['http:', 'https:'].includes(new URL(value).protocol)), {
    message: 'A track cover must be an http(s) URL',
  })
  .transform((value) => value || null);

function parseTracklist(value: unknown) {
  if (!Array.isArray(value)) throw new InvalidInputError(`tracks must be a list of ${TRACKLIST_MIN} to ${TRACKLIST_MAX} track entries`);
  if (value.length < TRACKLIST_MIN || value.length > TRACKLIST_MAX) throw new InvalidInputError(messagesOf.tracklistSize(value.length));
  return value.map((raw: TracklistEntry, index) => {
    const missing = messagesOf.missingFields(index + 1);
    const entry = z
      .object({
        title: z.string({ error: missing }).trim().min(1, missing).max(300),
        creators: z.array(z.string({ error: missing }).trim().max(200), { error: missing }).transform((names) => names.filter(Boolean)),
        catalogueTrackId: z.unknown().optional(),
        isManual: z.boolean().nullish(),
        label: z.string().trim().max(200).nullish(),
        cover: coverUrl.nullish(),
      })
      .safeParse(raw ?? {});
    if (!entry.success) throw new InvalidInputError(firstMessage(entry.error));
    if (entry.data.creators.length === 0) throw new InvalidInputError(missing);
    const { catalogueTrackId, isManual } = entry.data;
    return { ...entry.data, catalogueTrackId: !isManual && isUuid(catalogueTrackId) ? catalogueTrackId : null };
  });
}

/** Mixes: drafts, tracklists, publishing, deactivation, single mixes, mixes by member, and the feed. */
export class MixesService {
  constructor(
    private readonly orm: Orm,
    private readonly storage: StorageDriver,
    private readonly betaCodes: readonly string[],
  ) {}

  protected em(): EntityManager {
    return this.orm.em.fork() as EntityManager;
  }

  coverUrl(mix: Pick<IMix, 'cover'>): string {
    return this.storage.publicUrl(objectKey(FOLDERS.mixImages, mix.cover));
  }

  audioUrl(mix: Pick<IMix, 'mp3'>): string {
    return this.storage.publicUrl(objectKey(FOLDERS.mixAudio, mix.mp3));
  }

  /** Creates a draft owned by the uploader, recording where it was made (the uploader's location now). */
  async createDraft(input: NewDraft): Promise<IMix> {
    const title = input.title.trim();
    if (!title) throw new InvalidInputError('Title');
    const genre = parseGenre(input.genre);
    const em = this.em();
    const owner = await em.findOne(User, input.ownerId);
    if (!owner) throw new NotFoundError('User not found');
    const mix = em.create(Mix, {
      owner,
      title: title.slice(0, 200),
      genre,
      cover: input.cover,
      mp3: input.mp3,
      audioBytes: input.audioBytes ?? 0,
      durationSeconds: input.durationSeconds ?? null,
      bitrate: input.bitrate ?? null,
      latitude: owner.latitude ?? null,
      longitude: owner.longitude ?? null,
    } as never) as IMix;
    await em.flush();
    return mix;
  }

  /**
   * The caller's own mix: 404 when missing or deactivated, 403 when someone else's. Changes lock its row for their
   * transaction, so two at once (a double click on publish, two tracklists) happen one after the other.
   */
  private async ownMix(em: EntityManager, viewerId: string, mixId: unknown, forChange = false): Promise<IMix> {
    const lock = forChange ? { lockMode: LockMode.PESSIMISTIC_WRITE, lockTableAliases: ['m0'] } : {};
    const mix = isUuid(mixId) ? await em.findOne(Mix, mixId, { populate: ['owner'], ...lock }) : null;
    if (!mix || mix.deactivatedAt) throw new NotFoundError(messagesOf.mixNotFound);
    if (mix.owner.id !== viewerId) throw new ForbiddenError(messagesOf.notYourMix);
    return mix;
  }

  /**
   * Replaces the tracklist of the caller's mix, keeping the order given. Entries naming an existing catalogue track
   * use it; every other entry becomes a manual catalogue track.
   */
  async setTracklist(viewerId: string, mixId: unknown, rawEntries: unknown): Promise<MixTrackView[]> {
    const entries = parseTracklist(rawEntries);
    return this.em().transactional(async (txEm) => {
      const em = txEm as EntityManager;
      const mix = await this.ownMix(em, viewerId, mixId, true);
      const named = entries.flatMap((entry) => (entry.catalogueTrackId ? [entry.catalogueTrackId] : []));
      const catalogue = new Map(
        (named.length > 0 ? await em.find(Track, { id: { $in: named } }) : []).map((track) => [track.id, track] as const),
      );
      await em.nativeDelete(MixTrack, { mix: mix.id });
      const tracklist = entries.map((entry, index): MixTrackView => {
        const track =
          (entry.catalogueTrackId && catalogue.get(entry.catalogueTrackId)) ||
          (em.create(Track, {
            title: entry.title,
            creators: entry.creators.map((name) => ({ id: null, name })),
            label: entry.label ? { id: null, name: entry.label } : null,
            cover: entry.cover ?? null,
            isManual: true,
          } as never) as ITrack);
        em.create(MixTrack, { mix, track, position: index + 1 } as never);
        return { position: index + 1, startTime: null, endTime: null, track };
      });
      await em.flush();
      return tracklist;
    });
  }

  /**
   * Publishes the caller's draft once it has its tracklist, on the server's own evidence only: a configured beta code
   * (compared trimmed and lower-cased; recorded as an entitlement), or an entitlement a payment already created for this
   * mix or an active subscription. Hosting then runs HOSTING_MONTHS.
   */
  async publish(viewerId: string, mixId: unknown, rawCode: unknown): Promise<MixView> {
    if (rawCode !== undefined && rawCode !== null && typeof rawCode !== 'string') throw new InvalidInputError('code must be text');
    const code = (rawCode ?? '').trim().toLowerCase();
    return this.em().transactional(async (txEm) => {
      const em = txEm as EntityManager;
      const mix = await this.ownMix(em, viewerId, mixId, true);
      if (mix.status === 'published') throw new ConflictError(messagesOf.alreadyPublished);
      if ((await em.count(MixTrack, { mix: mix.id })) < TRACKLIST_MIN) throw new InvalidInputError(messagesOf.tracklistFirst);
      const now = new Date();
      if (code) {
        if (!this.betaCodes.includes(code)) throw new InvalidInputError(messagesOf.invalidCode);
        em.create(Entitlement, { user: mix.owner, mix, source: 'code', code, validFrom: now, validUntil: hostingEnds(now) } as never);
      } else if (!(await this.hasPaidEntitlement(em, viewerId, mix.id))) {
        throw new PaymentRequiredError(messagesOf.paymentRequired);
      }
      mix.status = 'published';
      mix.publishedAt = now;
      mix.expiresAt = hostingEnds(now);
      await em.flush();
      return mixView(mix);
    });
  }

  private async hasPaidEntitlement(em: EntityManager, userId: string, mixId: string): Promise<boolean> {
    const rows = await em.execute<{ found: number }[]>(
      `select 1 as found from entitlement
        where user_id = ? and (mix_id = ? or (source = 'subscription' and mix_id is null))
          and valid_from <= now() and (valid_until is null or valid_until > now())
        limit 1`,
      [userId, mixId],
    );
    return rows.length > 0;
  }

  /** Soft-deletes the caller's mix: from now on no list, page or search shows it, and no member keeps it as current mix. */
  async deactivate(viewerId: string, mixId: unknown): Promise<void> {
    await this.em().transactional(async (txEm) => {
      const em = txEm as EntityManager;
      const mix = await this.ownMix(em, viewerId, mixId, true);
      mix.deactivatedAt = new Date();
      await em.flush();
      await em.nativeUpdate(User, { currentMix: mix.id }, { currentMix: null, currentMixPos: 0 } as never);
    });
  }

  /**
   * One mix as the viewer may see it: anyone sees a visible mix (VISIBLE_MIX_SQL); its owner also sees it while it is a
   * draft or has expired, until they deactivate it. 404 otherwise. With no viewer this is the public mix.
   */
  async detail(mixId: unknown, viewerId: string | null): Promise<MixDetail> {
    if (!isUuid(mixId)) throw new NotFoundError(messagesOf.mixNotFound);
    const em = this.em();
    const [row] = await em.execute<(MixRow & { is_owner: boolean | null; distance_m: number | null })[]>(
      `with viewer as materialized (select geo_earth(latitude, longitude) as point from app_user where id = ?)
       select ${MIX_COLUMNS}, m.owner_id = ? as is_owner, (select earth_distance(v.point, m.geo) from viewer v) as distance_m
         from mix m ${WITH_OWNER}
        where m.id = ? and m.deactivated_at is null and ((${VISIBLE_MIX_SQL}) or m.owner_id = ?)`,
      [viewerId, viewerId, mixId, viewerId],
    );
    if (!row) throw new NotFoundError(messagesOf.mixNotFound);
    const isOwner = row.is_owner === true;
    return { mix: this.view(em, row), isOwner, distanceKm: isOwner ? null : toKm(row.distance_m) };
  }

  /** The caller's draft, for the payment step of the upload. */
  async draftForPayment(viewerId: string, mixId: unknown): Promise<MixView> {
    const mix = await this.ownMix(this.em(), viewerId, mixId);
    if (mix.status === 'published') throw new ConflictError(messagesOf.alreadyPublished);
    return mixView(mix);
  }

  /** A member's published mixes, newest first; the member themself also sees their expired ones. */
  async byUser(userName: unknown, viewerId: string | null, page: PageRequest, excludeMixId?: unknown): Promise<MixPage> {
    if (typeof userName !== 'string' || !userName.trim()) throw new NotFoundError('User not found');
    const paging = parsePage(page);
    const em = this.em();
    const [owner] = await em.execute<{ id: string }[]>('select id from app_user where lower(user_name) = lower(?)', [userName.trim()]);
    if (!owner) throw new NotFoundError('User not found');
    const isOwner = owner.id === viewerId;
    const conditions = [
      'owner_id = ?',
      isOwner ? `status = 'published' and deactivated_at is null` : VISIBLE_MIX_SQL,
      ...(isUuid(excludeMixId) ? ['id <> ?'] : []),
    ];
    const params = [owner.id, ...(isUuid(excludeMixId) ? [excludeMixId] : [])];
    const distanceFrom = isOwner ? null : await this.storedLocation(em, viewerId);
    const totalCount = alongside(this.count(em, conditions, params));
    return this.toPage(em, await this.pageRows(em, { conditions, params, distanceFrom, paging }), paging.first, totalCount);
  }

  /**
   * The feed: visible mixes of a genre (or all) within `radiusKm` of a point, newest first, each with its distance from
   * the point. The point is `from`, else the viewer's stored location. The maximum radius means everywhere: the earth's
   * half circumference is 20,015 km, so a literal 20,000 km circle would drop a thin cap at the antipode nobody means to
   * exclude; "everywhere" also keeps mixes whose place is unknown and needs no point (distances are then null). A
   * smaller radius with no point at all is a 400.
   *
   * Served from the feed migration's indexes (and tally) with a fixed number of statements: the viewer's location when
   * no point was given, one count (alongside the rest), one page (an index-only scan for the ids, then those rows; an
   * all-genre radius page may take a second, see WALK_LIMIT) with the mixes and their owners.
   */
  async feed(filter: FeedFilter, viewerId: string | null, page: PageRequest = {}): Promise<MixPage> {
    const genre = parseGenreFilter(filter.genre);
    const radiusKm = parseRadius(filter.radiusKm);
    const paging = parsePage(page);
    const everywhere = radiusKm >= FEED_MAX_RADIUS_KM;
    const em = this.em();
    const point = filter.from === undefined || filter.from === null ? await this.storedLocation(em, viewerId) : parseLocation(filter.from);
    if (!point && !everywhere) throw new InvalidInputError(messagesOf.noPoint);

    const conditions = [VISIBLE_MIX_SQL];
    const params: unknown[] = [];
    if (genre !== 'all') {
      conditions.push('genre = ?');
      params.push(genre);
    }
    if (everywhere || !point) {
      const totalCount = alongside(this.countEverywhere(em, genre));
      return this.toPage(em, await this.pageRows(em, { conditions, params, distanceFrom: point, paging }), paging.first, totalCount);
    }
    // Within R of the point, compared as chord lengths (gc_to_sec(R) folds to a constant): exact, and cheap per row.
    const within = {
      condition: 'cube_distance(geo_earth(?, ?), geo) <= gc_to_sec(?)',
      params: [point.latitude, point.longitude, radiusKm * 1000],
    };
    if (genre !== 'all') {
      // One genre's own index bounds the work (a genre holds about a twentieth of the mixes): count and page from it.
      const filtered = { conditions: [...conditions, within.condition], params: [...params, ...within.params] };
      const totalCount = alongside(this.count(em, filtered.conditions, filtered.params));
      return this.toPage(em, await this.pageRows(em, { ...filtered, distanceFrom: point, paging }), paging.first, totalCount);
    }
    // All genres: the GiST box finds the candidates for the count; the page walks the newest mixes first.
    const box = { condition: 'earth_box(geo_earth(?, ?), ?) @> geo', params: [point.latitude, point.longitude, radiusKm * 1000] };
    const inBox = { conditions: [...conditions, within.condition, box.condition], params: [...params, ...within.params, ...box.params] };
    const totalCount = alongside(this.count(em, inBox.conditions, inBox.params));
    const walked = await this.pageRows(em, { conditions, params, distanceFrom: point, paging, walk: { limit: WALK_LIMIT, ...within } });
    const rows = walked.length > paging.first ? walked : await this.pageRows(em, { ...inBox, distanceFrom: point, paging });
    return this.toPage(em, rows, paging.first, totalCount);
  }

  /**
   * Each mix's tracklist in order, for many mixes in one query (the loaders of both skins call this); only the first
   * `limit` entries of each when given (a card previews four).
   */
  async tracksOf(mixIds: readonly string[], limit?: number): Promise<Map<string, MixTrackView[]>> {
    const byMix = new Map<string, MixTrackView[]>(mixIds.map((id) => [id, []]));
    if (mixIds.length === 0) return byMix;
    const rows = await this.em().execute<
      (TrackRow & { mix_id: string; position: number; start_time: number | null; end_time: number | null })[]
    >(
      `select mt.mix_id, mt.position, mt.start_time, mt.end_time, ${TRACK_COLUMNS}
         from mix_track mt join track t on t.id = mt.track_id
        where mt.mix_id in (?) ${limit === undefined ? '' : 'and mt.position <= ?'}
        order by mt.mix_id, mt.position`,
      limit === undefined ? [[...mixIds]] : [[...mixIds], limit],
    );
    for (const row of rows) {
      byMix.get(row.mix_id)?.push({ position: row.position, startTime: row.start_time, endTime: row.end_time, track: trackView(row) });
    }
    return byMix;
  }

  /** Mixes by id (any state: callers choose which ids may be shown), with their owners; missing ids are skipped. */
  async viewsByIds(em: EntityManager, ids: readonly string[]): Promise<Map<string, MixView>> {
    if (ids.length === 0) return new Map();
    const rows = await em.execute<MixRow[]>(`select ${MIX_COLUMNS} from mix m ${WITH_OWNER} where m.id in (?)`, [[...ids]]);
    return new Map(rows.map((row) => [row.id, this.view(em, row)]));
  }

  private view(em: EntityManager, row: MixRow): MixView {
    return {
      id: row.id,
      title: row.title,
      genre: row.genre,
      cover: row.cover,
      mp3: row.mp3,
      durationSeconds: row.duration_seconds,
      latitude: row.latitude,
      longitude: row.longitude,
      status: row.status,
      publishedAt: dateOrNull(row.published_at),
      expiresAt: dateOrNull(row.expires_at),
      createdAt: new Date(row.created_at),
      owner: em.map(User, row.owner),
    };
  }

  private async storedLocation(em: EntityManager, viewerId: string | null): Promise<Location | null> {
    if (!viewerId) return null;
    const [viewer] = await em.execute<{ latitude: number | null; longitude: number | null }[]>(
      'select latitude, longitude from app_user where id = ?',
      [viewerId],
    );
    return viewer && viewer.latitude !== null && viewer.longitude !== null
      ? { latitude: viewer.latitude, longitude: viewer.longitude }
      : null;
  }

  private async count(em: EntityManager, conditions: string[], params: unknown[]): Promise<number> {
    const [row] = await em.execute<{ count: number }[]>(`select count(*)::int as count from mix where ${conditions.join(' and ')}`, params);
    return row.count;
  }

  /**
   * How many visible mixes there are (of a genre), wherever they were made: the tally of mixes by the week their hosting
   * ends, for the weeks after this one, plus an exact count of those ending later this week.
   */
  private async countEverywhere(em: EntityManager, genre: GenreCode | 'all'): Promise<number> {
    const ofGenre = genre === 'all' ? '' : 'and genre = ?';
    const [row] = await em.execute<{ count: number }[]>(
      `select (select coalesce(sum(mixes), 0) from mix_feed_tally
                where expires_week > date_trunc('week', now() at time zone 'UTC')::date ${ofGenre})::int
            + (select count(*) from mix
                where status = 'published' and deactivated_at is null ${ofGenre} and expires_at > now()
                  and expires_at < (date_trunc('week', now() at time zone 'UTC') + interval '1 week') at time zone 'UTC')::int as count`,
      genre === 'all' ? [] : [genre, genre],
    );
    return row.count;
  }

  /**
   * The rows of one page of mixes, newest published first (ties broken by id), plus one to tell whether more follow.
   * The page's ids come from an index-only scan (materialized, so the plan stays index-only whatever is joined after),
   * then just those rows are read. With `walk`, only the newest `walk.limit` rows are read and filtered by
   * `walk.condition`, so a sparse filter cannot make the walk read the whole index.
   */
  private async pageRows(
    em: EntityManager,
    query: {
      conditions: string[];
      params: unknown[];
      distanceFrom: Location | null;
      paging: ReturnType<typeof parsePage>;
      walk?: { limit: number; condition: string; params: unknown[] };
    },
  ): Promise<PageRow[]> {
    const { first, after, offset } = query.paging;
    const where = [...query.conditions, ...(after ? ['(published_at, id) < (?::timestamptz, ?::uuid)'] : [])].join(' and ');
    const source = query.walk
      ? `(select id, published_at, geo from mix where ${where} order by published_at desc, id desc limit ?) recent where ${query.walk.condition}`
      : `mix where ${where}`;
    const distance = query.distanceFrom ? 'earth_distance(geo_earth(?, ?), geo)' : 'null::float8';
    return em.execute<PageRow[]>(
      `with page as materialized (
         select id, published_at, ${timestampKeySql('published_at')} as sort_key, ${distance} as distance_m
           from ${source}
          order by published_at desc, id desc
          limit ? offset ?)
       select ${MIX_COLUMNS}, page.sort_key, page.distance_m
         from page join mix m on m.id = page.id ${WITH_OWNER}
        order by page.published_at desc, page.id desc`,
      [
        ...(query.distanceFrom ? [query.distanceFrom.latitude, query.distanceFrom.longitude] : []),
        ...query.params,
        ...(after ?? []),
        ...(query.walk ? [query.walk.limit, ...query.walk.params] : []),
        first + 1,
        offset,
      ],
    );
  }

  /** A page from its rows: the mixes (with their owners), their cursors, and whether more follow. */
  private toPage(em: EntityManager, rows: PageRow[], first: number, totalCount: Promise<number>): MixPage {
    return {
      items: rows.slice(0, first).map((row) => ({
        mix: this.view(em, row),
        distanceKm: toKm(row.distance_m),
        cursor: encodeCursor([row.sort_key, row.id]),
      })),
      totalCount,
      hasNextPage: rows.length > first,
    };
  }
}

/**
 * A count started alongside the page. Whoever reads the page awaits it, where a failure surfaces; this only keeps a
 * failure from going unobserved (an unhandled rejection) when the page itself failed first or nobody asked.
 */
function alongside(count: Promise<number>): Promise<number> {
  count.catch(() => undefined);
  return count;
}

const toKm = (metres: number | null | undefined): number | null => (typeof metres === 'number' ? metres / 1000 : null);
