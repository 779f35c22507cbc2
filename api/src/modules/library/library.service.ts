import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm.js';
import { encodeCursor, keysetReading, pageOfRows, timestampKeySql } from '../../shared/cursor.js';
import { NotFoundError } from '../../shared/errors.js';
import { parseInput } from '../../shared/inputs.js';
import {
  Mix,
  type MixesService,
  type MixPage,
  type MixPageRequest,
  type MixView,
  mixPolicy,
  parseMixPage,
  VISIBLE_MIX_SQL,
} from '../mixes/index.js';
import { TRACK_COLUMNS, Track, type TrackRow, type TrackView, trackView } from '../tracks/index.js';
import { type IUser, User } from '../users/index.js';
import { LibraryErrors } from './library.errors.js';
import { currentMixInput, mixIdInput, trackIdInput, trackIdsInput } from './library.inputs.js';

export interface SavedTrackView {
  track: TrackView;
  savedAt: Date;
}

/** What the logged-in member's own answer lists: saved mixes (visible ones) and saved tracks, newest first. */
export interface LibraryIds {
  savedMixIds: string[];
  savedTrackIds: string[];
}

/** A member's library: saved mixes, saved catalogue tracks, and the mix they are playing with its position. */
/**
 * Whether the viewer (the named parameter :viewerId) saved the mix whose id is the SQL expression `mixId`: for pages
 * of mixes that answer "saved by me" in their own statement (a primary-key probe per mix).
 */
export const savedByViewerSql = (mixId: string) => `exists (select 1 from saved_mix s where s.user_id = :viewerId and s.mix_id = ${mixId})`;

export class LibraryService {
  constructor(
    private readonly orm: Orm,
    private readonly mixes: MixesService,
  ) {}

  private em(): EntityManager {
    return this.orm.em.fork() as EntityManager;
  }

  /** Saves a visible mix (saving twice changes nothing); 404 for a mix nobody may see. */
  async saveMix(userId: string, rawMixId: unknown): Promise<void> {
    const mixId = parseInput(mixIdInput, rawMixId);
    if (!mixId) throw LibraryErrors.mixNotFound();
    await this.em().transactional(async (em) => {
      const [mix] = await em.execute<{ id: string }[]>(`select id from mix where id = ? and ${VISIBLE_MIX_SQL} for share`, [mixId]);
      if (!mix) throw LibraryErrors.mixNotFound();
      await em.execute('insert into saved_mix (user_id, mix_id, saved_at) values (?, ?, now()) on conflict do nothing', [userId, mixId]);
    });
  }

  /** Forgets a saved mix; removing one that is not saved changes nothing. */
  async removeSavedMix(userId: string, rawMixId: unknown): Promise<void> {
    const mixId = parseInput(mixIdInput, rawMixId);
    if (!mixId) throw LibraryErrors.mixNotFound();
    await this.em().execute('delete from saved_mix where user_id = ? and mix_id = ?', [userId, mixId]);
  }

  /** The member's saved mixes that anyone may still see, most recently saved first. */
  async savedMixes(userId: string, page: MixPageRequest): Promise<MixPage> {
    const paging = parseMixPage(page);
    const { beyondCursor, order } = keysetReading(paging, true);
    const em = this.em();
    const visible = `join mix m on m.id = s.mix_id and ${VISIBLE_MIX_SQL}`;
    const [{ count }] = await em.execute<{ count: number }[]>(
      `select count(*)::int as count from saved_mix s ${visible} where s.user_id = ?`,
      [userId],
    );
    const rows = await em.execute<{ mix_id: string; sort_key: string }[]>(
      `select s.mix_id, ${timestampKeySql('s.saved_at')} as sort_key
         from saved_mix s ${visible}
        where s.user_id = ? ${paging.cursor ? `and (s.saved_at, s.mix_id) ${beyondCursor} (?::timestamptz, ?::uuid)` : ''}
        order by s.saved_at ${order}, s.mix_id ${order}
        limit ? offset ?`,
      [userId, ...(paging.cursor ?? []), paging.size + 1, paging.offset],
    );
    const shown = pageOfRows(rows, paging);
    const mixes = await this.mixes.viewsByIds(
      em,
      shown.rows.map((row) => row.mix_id),
    );
    return {
      items: shown.rows.flatMap((row) => {
        const mix = mixes.get(row.mix_id);
        return mix ? [{ mix, distanceKm: null, cursor: encodeCursor([row.sort_key, row.mix_id]) }] : [];
      }),
      totalCount: Promise.resolve(count),
      totalCountIsLowerBound: false,
      hasNextPage: shown.hasNextPage,
      hasPreviousPage: shown.hasPreviousPage || paging.offset > 0,
    };
  }

  /** Which of these mixes the member saved (one query for a whole page of mixes); see also savedByViewerSql. */
  async savedAmong(userId: string, mixIds: readonly string[]): Promise<Set<string>> {
    if (mixIds.length === 0) return new Set();
    const rows = await this.em().execute<{ mix_id: string }[]>('select mix_id from saved_mix where user_id = ? and mix_id in (?)', [
      userId,
      [...mixIds],
    ]);
    return new Set(rows.map((row) => row.mix_id));
  }

  /**
   * Who saved each of these mixes (REST `saved_by`), in one query: only for the mixes the viewer may see the audience
   * of (their own); the others are absent from the answer.
   */
  async saversOf(mixes: readonly { id: string; ownerId: string }[], viewerId: string | null): Promise<Map<string, string[]>> {
    const mixIds = mixes.filter((mix) => mixPolicy.seesAudience(viewerId, mix.ownerId)).map((mix) => mix.id);
    const savers = new Map<string, string[]>(mixIds.map((id) => [id, []]));
    if (mixIds.length === 0) return savers;
    const rows = await this.em().execute<{ mix_id: string; user_id: string }[]>(
      'select mix_id, user_id from saved_mix where mix_id in (?) order by saved_at',
      [[...mixIds]],
    );
    for (const row of rows) savers.get(row.mix_id)?.push(row.user_id);
    return savers;
  }

  /** Saves a catalogue track (twice changes nothing) and answers the saved tracks. */
  async saveTrack(userId: string, rawTrackId: unknown): Promise<SavedTrackView[]> {
    const trackId = parseInput(trackIdInput, rawTrackId);
    await this.em().transactional(async (em) => {
      const track = await em.findOne(Track, trackId);
      if (!track) throw LibraryErrors.trackNotFound();
      await em.execute('insert into saved_track (user_id, track_id, saved_at) values (?, ?, now()) on conflict do nothing', [
        userId,
        trackId,
      ]);
    });
    return this.savedTracks(userId);
  }

  async removeSavedTrack(userId: string, rawTrackId: unknown): Promise<SavedTrackView[]> {
    const trackId = parseInput(trackIdInput, rawTrackId);
    await this.em().execute('delete from saved_track where user_id = ? and track_id = ?', [userId, trackId]);
    return this.savedTracks(userId);
  }

  /** The member's saved tracks, most recently saved first; only those of `trackIds` when given. */
  async savedTracks(userId: string, rawTrackIds?: unknown): Promise<SavedTrackView[]> {
    const trackIds = parseInput(trackIdsInput, rawTrackIds);
    if (trackIds?.length === 0) return [];
    const rows = await this.em().execute<(TrackRow & { saved_at: Date | string })[]>(
      `select s.saved_at, ${TRACK_COLUMNS}
         from saved_track s join track t on t.id = s.track_id
        where s.user_id = ? ${trackIds ? 'and s.track_id in (?)' : ''}
        order by s.saved_at desc, s.track_id`,
      trackIds ? [userId, trackIds] : [userId],
    );
    return rows.map((row) => ({ savedAt: new Date(row.saved_at), track: trackView(row) }));
  }

  /** The ids the logged-in member's answer carries, in one round trip. */
  async ids(userId: string): Promise<LibraryIds> {
    const [row] = await this.em().execute<{ mixes: string[] | null; tracks: string[] | null }[]>(
      `select (select array_agg(s.mix_id order by s.saved_at desc, s.mix_id desc)
                 from saved_mix s join mix m on m.id = s.mix_id and ${VISIBLE_MIX_SQL} where s.user_id = ?) as mixes,
              (select array_agg(track_id order by saved_at desc, track_id) from saved_track where user_id = ?) as tracks`,
      [userId, userId],
    );
    return { savedMixIds: row.mixes ?? [], savedTrackIds: row.tracks ?? [] };
  }

  /** Remembers the mix the member is playing and where they are in it (seconds); a null mix forgets it. */
  async saveCurrentMix(userId: string, rawMixId: unknown, rawPosition: unknown): Promise<IUser> {
    const { mixId, position: seconds } = parseInput(currentMixInput, { mixId: rawMixId, position: rawPosition });
    return this.em().transactional(async (em) => {
      const user = await em.findOne(User, userId);
      if (!user) throw LibraryErrors.memberNotFound();
      if (mixId === null || mixId === undefined) {
        user.currentMix = null;
      } else {
        const id = parseInput(mixIdInput, mixId);
        const [mix] = id ? await em.execute<{ id: string }[]>(`select id from mix where id = ? and ${VISIBLE_MIX_SQL}`, [id]) : [];
        if (!mix) throw LibraryErrors.mixNotFound();
        user.currentMix = em.getReference(Mix, mix.id);
      }
      user.currentMixPos = seconds;
      return user;
    });
  }

  /** Gives the member a random published, active, unexpired mix as the current mix; none is not an error. */
  assignRandomMix(userId: string): Promise<IUser> {
    return this.em().transactional(async (em) => {
      const user = await em.findOne(User, userId);
      if (!user) throw LibraryErrors.memberNotFound();
      const [row] = await em.execute<{ id: string }[]>(
        `select id from mix where ${VISIBLE_MIX_SQL}
           offset floor(random() * (select count(*) from mix where ${VISIBLE_MIX_SQL}))
           limit 1`,
      );
      user.currentMix = row ? em.getReference(Mix, row.id) : null;
      user.currentMixPos = 0;
      return user;
    });
  }

  /** The member's current mix while anyone may still see it. */
  async currentMix(user: Pick<IUser, 'currentMix'>): Promise<MixView | null> {
    const mixId = user.currentMix?.id;
    if (!mixId) return null;
    const detail = await this.mixes.detail(mixId, null).catch((error) => {
      if (error instanceof NotFoundError) return null;
      throw error;
    });
    return detail?.mix ?? null;
  }
}
