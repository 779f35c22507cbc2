import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm.js';
import { wholeKm } from '../../shared/geo.js';
import { parseInput } from '../../shared/inputs.js';
import { named } from '../../shared/sql.js';
import { FOLDERS, objectKey, type StorageDriver } from '../../storage/storage.js';
import type { MixTrackView, TracksService } from '../tracks/index.js';
import { activeMemberSql, User } from '../users/index.js';
import { lockOwnMix } from './commands/own-mix.js';
import { setTracklist } from './commands/set-tracklist.js';
import { planFeed } from './feed-planner.js';
import { type IMix, Mix } from './mix.entity.js';
import { MixErrors } from './mix.errors.js';
import {
  byUserInput,
  type FeedFilter,
  feedFilterInput,
  type MixPageRequest,
  mixIdInput,
  type NewDraft,
  newDraftInput,
  parseMixPage,
} from './mix.inputs.js';
import { draftKeptUntil, listedByOwnerSql, mixPolicy, OPENABLE_BY_VIEWER_SQL, OWNER_SUSPENDED_SQL, VISIBLE_MIX_SQL } from './mix.policy.js';
import {
  MIX_COLUMNS,
  type MixDetail,
  type MixPage,
  type MixRow,
  type MixView,
  mixViewOf,
  mixViewOfRow,
  type TrackMixPage,
  WITH_OWNER,
} from './mix.views.js';
import { countOfMixes, filterOf, type PageQuery, pageOfMixes } from './mix-pages.js';
import { TracklistVersionsService } from './tracklist-versions.service.js';

export interface DraftLimits {
  /** Unpublished drafts one member may keep. */
  maxDrafts: number;
  /** Days an untouched draft is kept. */
  ttlDays: number;
}

/** The files of a removed draft, for the media storage to delete. */
export interface RemovedDraft {
  id: string;
  cover: string;
  mp3: string;
}

/** Mixes: drafts, tracklists, deactivation, single mixes, mixes by member or by track, and the feed. */
export class MixesService {
  /** A published mix's tracklist versions, for its owner (docs/payments.md#tracklist-versions). */
  readonly versions: TracklistVersionsService;

  constructor(
    private readonly orm: Orm,
    private readonly storage: StorageDriver,
    /** The catalogue, for the track whose mixes `byTrack` lists. */
    private readonly tracks: Pick<TracksService, 'byId' | 'versionEntriesOf'>,
    /** The library's rule for "saved by me", answered in a page's own statement (see PageQuery.savedByViewerSql). */
    private readonly savedByViewerSql?: PageQuery['savedByViewerSql'],
    readonly drafts: DraftLimits = { maxDrafts: 10, ttlDays: 14 },
    /** Refuses a member who may not upload at all (a repeat infringer, docs/trust.md#repeat-infringers); services.ts hands it in. */
    private readonly uploadGate: (ownerId: string) => Promise<void> = async () => {},
  ) {
    this.versions = new TracklistVersionsService(orm, tracks);
  }

  protected em(): EntityManager {
    return this.orm.em.fork() as EntityManager;
  }

  coverUrl(mix: Pick<IMix, 'cover'>): string {
    return this.storage.publicUrl(objectKey(FOLDERS.mixImages, mix.cover));
  }

  audioUrl(mix: Pick<IMix, 'mp3'>): string {
    return this.storage.publicUrl(objectKey(FOLDERS.mixAudio, mix.mp3));
  }

  /**
   * Creates a draft owned by the uploader, recording where it was made (the cell of the uploader's location now, all
   * that anyone is shown of it); in `em`'s transaction when given (the upload commits its files' records with it).
   */
  async createDraft(draft: NewDraft, em?: EntityManager): Promise<IMix> {
    if (!em) return this.em().transactional((txEm) => this.createDraft(draft, txEm as EntityManager));
    const input = parseInput(newDraftInput, draft);
    const owner = await em.findOne(User, input.ownerId);
    if (!owner) throw MixErrors.ownerNotFound();
    // The member's drafts are counted under a lock, so eight uploads finishing at once cannot pass the limit together.
    await em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`drafts:${owner.id}`]);
    await this.assertRoomForDraft(owner.id, em);
    const mix = em.create(Mix, {
      owner,
      title: input.title,
      genre: input.genre,
      cover: input.cover,
      mp3: input.mp3,
      audioBytes: input.audioBytes,
      durationSeconds: input.durationSeconds ?? null,
      bitrate: input.bitrate ?? null,
      latitude: owner.cellLatitude ?? null,
      longitude: owner.cellLongitude ?? null,
    });
    await em.flush();
    return mix;
  }

  /** A 403 when the member may not upload (the upload gate), a 409 naming the limit when they already keep the most unpublished drafts one may (see DRAFT limits). */
  async assertRoomForDraft(ownerId: string, em = this.em()): Promise<void> {
    await this.uploadGate(ownerId);
    const drafts = await em.count(Mix, { owner: ownerId, status: 'draft', deactivatedAt: null });
    if (drafts >= this.drafts.maxDrafts) throw MixErrors.tooManyDrafts(this.drafts.maxDrafts);
  }

  /** When the owner's draft is removed unless it is published or touched again; null for anyone else, and for published mixes. */
  async draftKeptUntil(viewerId: string | null, mixId: string): Promise<Date | null> {
    if (!viewerId) return null;
    const [row] = await this.em().execute<{ updated_at: Date | string }[]>(
      `select updated_at from mix where id = ? and owner_id = ? and status = 'draft' and deactivated_at is null`,
      [mixId, viewerId],
    );
    return row ? draftKeptUntil(new Date(row.updated_at), this.drafts.ttlDays) : null;
  }

  /**
   * Removes drafts untouched for DRAFT_TTL_DAYS (their tracklists, jobs and any saves go with the row) and answers
   * their files, which the caller deletes from storage. A batch at a time, rows locked (SKIP LOCKED: several processes
   * share the work, and a draft being published right now is left for the next sweep).
   */
  async removeStaleDrafts(now = new Date(), batch = 200): Promise<RemovedDraft[]> {
    const cutoff = new Date(now.getTime() - this.drafts.ttlDays * 24 * 60 * 60 * 1000);
    return this.em().execute<RemovedDraft[]>(
      `delete from mix where id in (
         select id from mix where status = 'draft' and updated_at < ? order by updated_at limit ? for update skip locked)
       returning id, cover, mp3`,
      [cutoff, batch],
    );
  }

  /** See the `set-tracklist` command. */
  setTracklist(viewerId: string, mixId: unknown, entries: unknown): Promise<MixTrackView[]> {
    return setTracklist(this.orm, { viewerId, mixId, entries });
  }

  /** Soft-deletes the caller's mix: from now on no list, page or search shows it, and no member keeps it as current mix. */
  async deactivate(viewerId: string, rawMixId: unknown): Promise<void> {
    const mixId = parseInput(mixIdInput, rawMixId);
    await this.em().transactional(async (txEm) => {
      const em = txEm as EntityManager;
      const mix = await lockOwnMix(em, viewerId, mixId);
      mix.deactivatedAt = new Date();
      await em.flush();
      await em.nativeUpdate(User, { currentMix: mix.id }, { currentMix: null, currentMixPos: 0 });
    });
  }

  /** One mix as the viewer may open it (see OPENABLE_BY_VIEWER_SQL); 404 otherwise. With no viewer this is the public mix. */
  async detail(rawMixId: unknown, viewerId: string | null): Promise<MixDetail> {
    const mixId = parseInput(mixIdInput, rawMixId);
    if (!mixId) throw MixErrors.notFound();
    const em = this.em();
    const [row] = await em.execute<(MixRow & { distance_m: number | null })[]>(
      ...named(
        `with viewer as materialized (select cell_geo as point from app_user where id = :viewer)
         select ${MIX_COLUMNS}, (select earth_distance(v.point, m.geo) from viewer v) as distance_m
           from mix m ${WITH_OWNER}
          where m.id = :mixId and ${OPENABLE_BY_VIEWER_SQL}`,
        { viewer: viewerId, mixId },
      ),
    );
    if (!row) throw await this.whyNotOpenable(em, mixId);
    const mix = mixViewOfRow(row);
    return {
      mix,
      distanceKm: mixPolicy.distanceShown(viewerId, mix.owner.id, wholeKm(row.distance_m)),
    };
  }

  /** A held mix answers 451 (its share link says why), anything else not openable 404. */
  private async whyNotOpenable(em: EntityManager, mixId: string): Promise<Error> {
    const [facts] = await em.execute<{ held: boolean; owner_suspended: boolean; deactivated: boolean }[]>(
      `select moderation_state is not null as held, ${OWNER_SUSPENDED_SQL} as owner_suspended, deactivated_at is not null as deactivated
         from mix where id = ?`,
      [mixId],
    );
    return facts &&
      mixPolicy.refusedForLegalReasons({ held: facts.held, ownerSuspended: facts.owner_suspended, deactivated: facts.deactivated })
      ? MixErrors.unavailableForLegalReasons()
      : MixErrors.notFound();
  }

  /** The caller's draft, for the payment step of the upload. */
  async draftForPayment(viewerId: string, rawMixId: unknown): Promise<MixView> {
    const mixId = parseInput(mixIdInput, rawMixId);
    const em = this.em();
    const mix = mixId ? await em.findOne(Mix, mixId, { populate: ['owner'] }) : null;
    mixPolicy.assertCanChange(mix && { deactivated: mix.deactivatedAt != null, ownerId: mix.owner.id }, viewerId);
    if (mix?.status === 'published') throw MixErrors.alreadyPublished();
    return mixViewOf(mix as IMix);
  }

  /** A member's mixes, newest first, as the viewer may list them (see `listedByOwnerSql`). */
  async byUser(userName: unknown, viewerId: string | null, page: MixPageRequest, excludeMixId?: unknown): Promise<MixPage> {
    const input = parseInput(byUserInput, { userName, excludeMixId });
    const paging = parseMixPage(page);
    const em = this.em();
    const [owner] = await em.execute<{ id: string }[]>(
      `select id from app_user u where lower(user_name) = lower(?) and ${activeMemberSql('u')}`,
      [input.userName],
    );
    if (!owner) throw MixErrors.ownerNotFound();
    const viewerIsOwner = owner.id === viewerId;
    const filter = filterOf(
      { conditions: ['owner_id = :owner', listedByOwnerSql(viewerIsOwner)], params: { owner: owner.id } },
      input.excludeMixId ? { conditions: ['id <> :excluded'], params: { excluded: input.excludeMixId } } : { conditions: [], params: {} },
    );
    const distanceFrom = viewerIsOwner || !viewerId ? null : { locationOf: viewerId };
    return pageOfMixes(em, { filter, distanceFrom, paging, viewerId, savedByViewerSql: this.savedByViewerSql }, countOfMixes(em, filter));
  }

  /**
   * The feed (see `planFeed`): by genre and within a radius of `from`, else of the viewer's stored location. A radius
   * below the maximum with no point at all is a 400.
   */
  async feed(rawFilter: FeedFilter, viewerId: string | null, page: MixPageRequest = {}): Promise<MixPage> {
    const filter = parseInput(feedFilterInput, rawFilter);
    const paging = parseMixPage(page);
    const origin = filter.from ? { point: filter.from } : viewerId ? { locationOf: viewerId } : null;
    return planFeed(this.em(), {
      genre: filter.genre,
      radiusKm: filter.radiusKm,
      origin,
      paging,
      viewerId,
      savedByViewerSql: this.savedByViewerSql,
    });
  }

  /**
   * The mixes whose tracklist holds the track, newest published first, as anyone may see them (VISIBLE_MIX_SQL), each
   * with the start time of the track's first entry in it; found through mix_track's index on track_id. 404 when there
   * is no such track.
   */
  async byTrack(rawTrackId: unknown, page: MixPageRequest, viewerId: string | null): Promise<TrackMixPage> {
    const track = await this.tracks.byId(rawTrackId);
    const paging = parseMixPage(page);
    const em = this.em();
    const filter = filterOf({
      conditions: [VISIBLE_MIX_SQL, 'id in (select mix_id from mix_track where track_id = :track)'],
      params: { track: track.id },
    });
    const mixes = await pageOfMixes(em, { filter, distanceFrom: null, paging, viewerId }, countOfMixes(em, filter));
    const ids = mixes.items.map((item) => item.mix.id);
    const starts = new Map(
      ids.length === 0
        ? []
        : (
            await em.execute<{ mix_id: string; start_time: number | null }[]>(
              `select distinct on (mix_id) mix_id, start_time from mix_track
                where track_id = ? and mix_id in (?) order by mix_id, position`,
              [track.id, ids],
            )
          ).map((row) => [row.mix_id, row.start_time] as const),
    );
    return { ...mixes, items: mixes.items.map((item) => ({ ...item, startTime: starts.get(item.mix.id) ?? null })) };
  }

  /** One mix by id (any state: the caller chooses whether it may be shown), with its owner; null when there is none. */
  async viewById(mixId: string): Promise<MixView | null> {
    return (await this.viewsByIds(this.em(), [mixId])).get(mixId) ?? null;
  }

  /** Mixes by id (any state: callers choose which ids may be shown), with their owners; missing ids are skipped. */
  async viewsByIds(em: EntityManager, ids: readonly string[]): Promise<Map<string, MixView>> {
    if (ids.length === 0) return new Map();
    const rows = await em.execute<MixRow[]>(`select ${MIX_COLUMNS} from mix m ${WITH_OWNER} where m.id in (?)`, [[...ids]]);
    return new Map(rows.map((row) => [row.id, mixViewOfRow(row)]));
  }
}
