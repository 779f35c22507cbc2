import type { EntityManager } from '@mikro-orm/postgresql';
import { FEED_MAX_RADIUS_KM, type GenreCode } from '../../shared/domain.js';
import { MixErrors } from './mix.errors.js';
import type { MixPaging } from './mix.inputs.js';
import { OWNER_SUSPENDED_SQL, PUBLISHED_ACTIVE_MIX_SQL, VISIBLE_MIX_SQL } from './mix.policy.js';
import type { MixPage } from './mix.views.js';
import {
  type CountInPage,
  cappedCountOfMixes,
  filterOf,
  type MixFilter,
  type Origin,
  originSql,
  type PageQuery,
  pageOfMixes,
} from './mix-pages.js';

/**
 * An all-genre radius page first walks the newest-first index, reading at most this many visible mixes and keeping
 * those inside the circle: enough for a page wherever the circle holds more than about 1 in 200 mixes. Where it holds
 * fewer, the page comes from the GiST index instead (then only a few hundred matches exist to sort). Either way a page
 * reads a few thousand index entries at most, and needs no count first.
 */
const WALK_LIMIT = 4_000;
/**
 * A radius page counts its matches up to this many: exact below, and "10,000+" (a lower bound the answer says it is)
 * above. Counting every mix in a 5,000 km circle read 190,000 index entries per page at a million mixes (121 ms); a
 * count that stops at the cap reads at most this many, and nobody pages through ten thousand cards.
 */
export const FEED_COUNT_CAP = 10_000;

export interface FeedPlan {
  genre: GenreCode | 'all';
  radiusKm: number;
  /** Where distances are measured from: the caller's point, else the viewer's stored location (none when signed out). */
  origin: Origin | null;
  paging: MixPaging;
  viewerId: string | null;
  savedByViewerSql: PageQuery['savedByViewerSql'];
}

/**
 * The feed: visible mixes of a genre (or all) within `radiusKm` of a point, newest first, each with its distance from
 * the point. The maximum radius means everywhere: the earth's half circumference is 20,015 km, so a literal 20,000 km
 * circle would drop a thin cap at the antipode nobody means to exclude; "everywhere" also keeps mixes whose place is
 * unknown and needs no point (distances are then null). A smaller radius with no point at all is a 400.
 *
 * One statement per page, served from the feed migration's indexes (and tally): the viewer's stored location when no
 * point was given, the page (an index-only scan for the ids, then those rows with their owners and the viewer's saved
 * marks) and its total. The total is exact everywhere (the tally) and, within a radius, up to FEED_COUNT_CAP (beyond,
 * a stated lower bound).
 */
export async function planFeed(em: EntityManager, plan: FeedPlan): Promise<MixPage> {
  const { genre, radiusKm, origin, paging, viewerId, savedByViewerSql } = plan;
  const visible = filterOf(
    { conditions: [VISIBLE_MIX_SQL], params: {} },
    genre === 'all' ? { conditions: [], params: {} } : { conditions: ['genre = :genre'], params: { genre } },
  );
  const page = { distanceFrom: origin, paging, viewerId, savedByViewerSql };
  if (radiusKm >= FEED_MAX_RADIUS_KM) return pageOfMixes(em, { ...page, filter: visible }, countEverywhere(genre));
  if (!origin) throw MixErrors.noPoint();
  const centre = originSql(origin).earth;
  const radius = { radiusMetres: radiusKm * 1000 };
  const around = { ...page, originRequired: MixErrors.noPoint };
  // Within R of the point, compared as chord lengths (gc_to_sec(R) folds to a constant): exact, and cheap per row.
  const within: MixFilter = { conditions: [`cube_distance(${centre}, geo) <= gc_to_sec(:radiusMetres)`], params: radius };
  if (genre !== 'all') {
    // One genre's own index bounds the work (a genre holds about a twentieth of the mixes): count and page from it.
    const filter = filterOf(visible, within);
    return pageOfMixes(em, { ...around, filter }, cappedCountOfMixes(filter, FEED_COUNT_CAP));
  }
  // All genres: the GiST box finds the candidates for the count, and for the page where the newest mixes are too
  // sparse in the circle for a walk to fill it.
  const inBox = filterOf(visible, within, { conditions: [`earth_box(${centre}, :radiusMetres) @> geo`], params: {} });
  return pageOfMixes(
    em,
    { ...around, filter: visible, walk: { limit: WALK_LIMIT, condition: within, fallback: inBox } },
    cappedCountOfMixes(inBox, FEED_COUNT_CAP),
  );
}

/**
 * How many visible mixes there are (of a genre), wherever they were made: the tally of mixes by the week their hosting
 * ends, for the weeks after this one, plus an exact count of those ending later this week, less the held mixes and
 * those of suspended members (few, each found through its own partial index; docs/trust.md#hidden-means-hidden).
 */
function countEverywhere(genre: GenreCode | 'all'): CountInPage {
  const ofGenre = genre === 'all' ? '' : 'and genre = :genre';
  return {
    sql: `(select coalesce(sum(mixes), 0) from mix_feed_tally
            where expires_week > date_trunc('week', now() at time zone 'UTC')::date ${ofGenre})::int
        + (select count(*) from mix
            where ${PUBLISHED_ACTIVE_MIX_SQL} ${ofGenre} and expires_at > now()
              and expires_at < (date_trunc('week', now() at time zone 'UTC') + interval '1 week') at time zone 'UTC')::int
        - (select count(*) from mix where moderation_state is not null and ${PUBLISHED_ACTIVE_MIX_SQL} ${ofGenre} and (expires_at is null or expires_at > now()))::int
        - (select count(*) from mix where ${OWNER_SUSPENDED_SQL} and moderation_state is null and ${PUBLISHED_ACTIVE_MIX_SQL} ${ofGenre}
            and (expires_at is null or expires_at > now()))::int`,
    params: genre === 'all' ? {} : { genre },
  };
}
