import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm.js';
import { encodeCursor, keysetReading, type PageEnds, pageOfRows } from '../../shared/cursor.js';
import { parseInput } from '../../shared/inputs.js';
import type { Viewer } from '../../shared/viewer.js';
import { FOLDERS, isSafeFileName, objectKey, type StorageDriver } from '../../storage/storage.js';
import { CatalogueService } from './catalogue/catalogue.service.js';
import { FEATURING, GENERIC_VERSION, VERSION_KINDS, words } from './catalogue/normalise.js';
import { preferRecognised } from './preselect.js';
import type { ITrack } from './track.entity.js';
import { TrackErrors } from './track.errors.js';
import { trackIdInput, tracklistLimitInput, trackSearchInput } from './track.inputs.js';

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

/** A page of catalogue tracks, in catalogue order. */
export interface TrackPage extends PageEnds {
  items: { track: TrackView; cursor: string }[];
}

/** Words a search looks for: the catalogue's words (words that only say "a version" or "featuring" are in no index). */
const searchTerms = (search: string) =>
  [...new Set(words(search))].filter((word) => !GENERIC_VERSION.has(word) && !VERSION_KINDS.has(word) && !FEATURING.has(word));

/** The track catalogue (browsing, lookups of typed tracklists) and the tracklists of mixes. */
export class TracksService {
  private readonly catalogue: CatalogueService;

  constructor(
    private readonly orm: Orm,
    private readonly storage?: Pick<StorageDriver, 'publicUrl'>,
    /** The tracks recognised in a mix, in play order, for its owner (the recognition module answers). */
    private readonly recognisedIn?: (viewer: Viewer, mixId: unknown) => Promise<string[]>,
  ) {
    this.catalogue = new CatalogueService(orm);
  }

  /**
   * A track's cover as an address an <img> loads: imported catalogues and manual tracks give http(s) URLs, kept as
   * they are; the demo world's references give one of our file names under app-assets/track-covers (docs/public-api.md#media-files).
   */
  private shown<T extends TrackView>(track: T): T {
    const { cover } = track;
    if (!cover || !this.storage || !isSafeFileName(cover)) return track;
    return { ...track, cover: this.storage.publicUrl(objectKey(FOLDERS.trackCovers, cover)) };
  }

  private em(): EntityManager {
    return this.orm.em.fork() as EntityManager;
  }

  /** The entries of tracklist versions (see the mixes module), in order, for many versions in one query. */
  async versionEntriesOf(versionIds: readonly string[]): Promise<Map<string, MixTrackView[]>> {
    const byVersion = new Map<string, MixTrackView[]>(versionIds.map((id) => [id, []]));
    if (versionIds.length === 0) return byVersion;
    const rows = await this.em().execute<
      (TrackRow & { version_id: string; position: number; start_time: number | null; end_time: number | null })[]
    >(
      `select e.version_id, e.position, e.start_time, e.end_time, ${TRACK_COLUMNS}
         from tracklist_version_entry e join track t on t.id = e.track_id
        where e.version_id in (?) order by e.version_id, e.position`,
      [[...versionIds]],
    );
    for (const row of rows) {
      byVersion
        .get(row.version_id)
        ?.push({ position: row.position, startTime: row.start_time, endTime: row.end_time, track: this.shown(trackView(row)) });
    }
    return byVersion;
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
      byMix
        .get(row.mix_id)
        ?.push({ position: row.position, startTime: row.start_time, endTime: row.end_time, track: this.shown(trackView(row)) });
    }
    return byMix;
  }

  /**
   * Candidates for each typed row (REST `tracks_array`: artist and title), in row order: up to 5 catalogue tracks
   * each, best first; an empty list means "No options found". A row missing either is a 400 'Missing: Empty fields'.
   * With the uploaded mix's id (its owner only), each row's candidate recognised in the mix comes first (see
   * preferRecognised).
   */
  async lookup(rows: unknown, forMix?: { viewer: Viewer; mixId: unknown }): Promise<TrackView[][]> {
    const recognised = forMix && this.recognisedIn ? await this.recognisedIn(forMix.viewer, forMix.mixId) : [];
    const candidates = await this.catalogue.lookup(rows);
    return preferRecognised(candidates, recognised).map((row) => row.map((track) => this.shown(track)));
  }

  /** One track (catalogue or manual); 404 when there is none. */
  async byId(rawId: unknown): Promise<TrackView> {
    const id = parseInput(trackIdInput, rawId);
    if (!id) throw TrackErrors.notFound();
    const [row] = await this.em().execute<TrackRow[]>(`select ${TRACK_COLUMNS} from track t where t.id = ?`, [id]);
    if (!row) throw TrackErrors.notFound();
    return this.shown(trackView(row));
  }

  /**
   * Catalogue tracks (never manual ones) in catalogue order, those holding every word of `search` when given (words as
   * the lookup index folds them: case, accents and punctuation aside), read through the lookup index's postings.
   */
  async search(rawSearch: unknown, page: { first?: unknown; after?: unknown; last?: unknown; before?: unknown }): Promise<TrackPage> {
    const { search, ...window } = parseInput(trackSearchInput, { search: rawSearch ?? undefined, ...page });
    const terms = search === null ? [] : searchTerms(search);
    if (search !== null && terms.length === 0) return { items: [], hasNextPage: false, hasPreviousPage: false };
    const params: unknown[] = [];
    let matching = '';
    if (terms.length > 0) {
      matching = `and t.search_no in (
        select p.track_no from catalogue_word w join catalogue_posting p on p.word_id = w.id
         where w.word in (select jsonb_array_elements_text(?::jsonb)) group by p.track_no having count(*) = ?)`;
      params.push(JSON.stringify(terms), terms.length);
    }
    const { beyondCursor, order } = keysetReading(window, false);
    if (window.cursor !== null) params.push(window.cursor);
    params.push(window.size + 1);
    const rows = await this.em().execute<(TrackRow & { search_no: number })[]>(
      `select ${TRACK_COLUMNS}, t.search_no from track t
        where not t.is_manual ${matching} ${window.cursor !== null ? `and t.search_no ${beyondCursor} ?` : ''}
        order by t.search_no ${order} limit ?`,
      params,
    );
    const shown = pageOfRows(rows, window);
    return {
      items: shown.rows.map((row) => ({ track: this.shown(trackView(row)), cursor: encodeCursor([String(row.search_no)]) })),
      hasNextPage: shown.hasNextPage,
      hasPreviousPage: shown.hasPreviousPage,
    };
  }
}
