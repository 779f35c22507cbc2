import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm.js';
import { parseInput } from '../../shared/inputs.js';
import type { ITrack } from './track.entity.js';
import { tracklistLimitInput } from './track.inputs.js';

/** A catalogue track as lists show it (plain data: lists of hundreds of tracks skip entity hydration). */
export type TrackView = Pick<ITrack, 'id' | 'title' | 'creators' | 'label' | 'cover' | 'isManual' | 'buy' | 'newRelease'>;

/** One entry of a mix's tracklist: its track and where it plays in the mix. */
export interface MixTrackView {
  position: number;
  startTime: number | null;
  endTime: number | null;
  track: TrackView;
}

/** The columns of a TrackView, read from a `track` aliased `t`. */
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

/** The track catalogue and the tracklists of mixes. */
export class TracksService {
  constructor(private readonly orm: Orm) {}

  private em(): EntityManager {
    return this.orm.em.fork() as EntityManager;
  }

  /**
   * Each mix's tracklist in order, for many mixes in one query (the loaders of both skins call this); only the first
   * `limit` entries of each when given (a card previews four).
   */
  async tracklistsOf(mixIds: readonly string[], rawLimit?: unknown): Promise<Map<string, MixTrackView[]>> {
    const limit = parseInput(tracklistLimitInput, rawLimit);
    const byMix = new Map<string, MixTrackView[]>(mixIds.map((id) => [id, []]));
    if (mixIds.length === 0) return byMix;
    const rows = await this.em().execute<
      (TrackRow & { mix_id: string; position: number; start_time: number | null; end_time: number | null })[]
    >(
      `select mt.mix_id, mt.position, mt.start_time, mt.end_time, ${TRACK_COLUMNS}
         from mix_track mt join track t on t.id = mt.track_id
        where mt.mix_id in (?) ${limit == null ? '' : 'and mt.position <= ?'}
        order by mt.mix_id, mt.position`,
      limit == null ? [[...mixIds]] : [[...mixIds], limit],
    );
    for (const row of rows) {
      byMix.get(row.mix_id)?.push({ position: row.position, startTime: row.start_time, endTime: row.end_time, track: trackView(row) });
    }
    return byMix;
  }
}
