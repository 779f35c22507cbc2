import type { EntityManager } from '@mikro-orm/postgresql';
import { encodeCursor, keysetReading, pageOfRows, timestampKeySql } from '../../shared/cursor.js';
import { wholeKm } from '../../shared/geo.js';
import { named } from '../../shared/sql.js';
import type { MixPaging } from './mix.inputs.js';
import { mixPolicy } from './mix.policy.js';
import { MIX_COLUMNS, type MixPage, type MixRow, mixViewOfRow, WITH_OWNER } from './mix.views.js';

/** A place on the earth, in degrees. */
export interface Point {
  latitude: number;
  longitude: number;
}

/**
 * Where a page measures distances from: a given point, or the viewer's stored location (its cell, as every distance
 * between members), read in the page's own statement (so a feed without a point costs no statement of its own to find one).
 */
export type Origin = { point: Point } | { locationOf: string };

/**
 * The origin as SQL: `earth` is an expression of type earth, computed once per statement (a constant, or the one row
 * of the `origin` CTE), so conditions and distances over it cost no trigonometry per row.
 */
export function originSql(origin: Origin): { earth: string; cte: string; params: Record<string, unknown> } {
  if ('point' in origin) {
    return {
      earth: 'geo_earth(:originLatitude, :originLongitude)',
      cte: '',
      params: { originLatitude: origin.point.latitude, originLongitude: origin.point.longitude },
    };
  }
  return {
    earth: '(select earth from origin)',
    cte: 'origin as materialized (select cell_geo as earth from app_user where id = :originMember)',
    params: { originMember: origin.locationOf },
  };
}

/** Conditions over `mix` (unqualified columns) with the values of their named parameters. */
export interface MixFilter {
  conditions: string[];
  params: Record<string, unknown>;
}

export const filterOf = (...parts: MixFilter[]): MixFilter => ({
  conditions: parts.flatMap((part) => part.conditions),
  params: Object.assign({}, ...parts.map((part) => part.params)),
});

interface PageRow extends MixRow {
  sort_key: string;
  distance_m: number | null;
  saved_by_viewer: boolean | null;
  total_count?: number;
  origin_known?: boolean;
}

/**
 * A count worked out in the page's own statement (one round trip for both): `sql` is a scalar expression over `params`.
 * With `cap`, the expression counts at most `cap + 1` rows, and a figure above `cap` is reported as the lower bound
 * `cap` (see MixPage.totalCountIsLowerBound).
 */
export interface CountInPage {
  sql: string;
  params: Record<string, unknown>;
  cap?: number;
}

export interface PageQuery {
  filter: MixFilter;
  /** Where distances are measured from (conditions in `filter` may use its SQL too); none means no distances. */
  distanceFrom: Origin | null;
  paging: MixPaging;
  /**
   * Read only the first `limit` rows of `filter` in the reading direction (the newest, or backward the oldest past the
   * cursor), and keep those meeting `condition` (so a sparse filter cannot read the whole index). When those do not
   * fill the page, the page comes from `fallback` instead, in the same statement.
   */
  walk?: { limit: number; condition: MixFilter; fallback: MixFilter };
  viewerId: string | null;
  /**
   * Whether the viewer (the named parameter :viewerId) saved the mix whose id is the given SQL expression: the library
   * module's rule, handed in so a page answers "saved by me" in its own statement.
   */
  savedByViewerSql?: (mixId: string) => string;
  /**
   * The error when the origin turns out unknown (the viewer has no stored location) and the page means nothing without
   * it, such as a radius around it. Checked on the count's row, so only with a count in the statement.
   */
  originRequired?: () => Error;
}

/**
 * One page of mixes, newest published first (ties broken by id): the page's ids come from an index-only scan
 * (materialized, so the plan stays index-only whatever is joined after), then just those rows are read with their
 * owners, in one statement. One row more than the page tells whether more follow (backward: precede; see
 * `keysetReading`). The total is either a count run alongside (a promise) or a count in the same statement (CountInPage).
 */
export async function pageOfMixes(em: EntityManager, query: PageQuery, total: Promise<number> | CountInPage): Promise<MixPage> {
  const { size, cursor, offset } = query.paging;
  const { beyondCursor, order } = keysetReading(query.paging, true);
  const pastCursor = cursor ? [`(published_at, id) ${beyondCursor} (:cursorTime::timestamptz, :cursorId::uuid)`] : [];
  const where = (filter: MixFilter) => [...filter.conditions, ...pastCursor].join(' and ');
  const walk = query.walk;
  // A walk keeps its rows only when they fill the page (with one to spare); else the fallback's rows stand in.
  const walked = walk
    ? `walked as materialized (
         select id, published_at, geo
           from (select id, published_at, geo from mix where ${where(query.filter)}
                  order by published_at ${order}, id ${order} limit :walkLimit) recent
          where ${walk.condition.conditions.join(' and ')}),
       walk_filled as materialized (
         select count(*) >= :rowLimit::int + :offset::int as filled
           from (select 1 from walked limit :rowLimit::int + :offset::int) enough)`
    : '';
  const source = walk
    ? `(select id, published_at, geo from walked where (select filled from walk_filled)
        union all
        select id, published_at, geo from mix where ${where(walk.fallback)} and not (select filled from walk_filled)) candidates`
    : `mix where ${where(query.filter)}`;
  const origin = query.distanceFrom ? originSql(query.distanceFrom) : null;
  const distance = origin ? `earth_distance(${origin.earth}, geo)` : 'null::float8';
  const marksSaved = Boolean(query.viewerId && query.savedByViewerSql);
  const savedMark = marksSaved && query.savedByViewerSql ? query.savedByViewerSql('m.id') : 'null::boolean';
  const counted = total instanceof Promise ? null : total;
  // With the count in the statement, its one row comes back even when the page is empty (the page's columns null).
  const rows = await em.execute<PageRow[]>(
    ...named(
      `with ${[origin?.cte, walked].map((cte) => (cte ? `${cte}, ` : '')).join('')}page as materialized (
         select id, published_at, ${timestampKeySql('published_at')} as sort_key, ${distance} as distance_m
           from ${source}
          order by published_at ${order}, id ${order}
          limit :rowLimit offset :offset)
       ${
         counted
           ? `, total as materialized (select (${counted.sql})::int as total_count, ${origin ? `${origin.earth} is not null` : 'false'} as origin_known)
       select ${MIX_COLUMNS}, page.sort_key, page.distance_m, ${savedMark} as saved_by_viewer, total.total_count, total.origin_known
         from total left join (page join mix m on m.id = page.id ${WITH_OWNER}) on true`
           : `select ${MIX_COLUMNS}, page.sort_key, page.distance_m, ${savedMark} as saved_by_viewer
         from page join mix m on m.id = page.id ${WITH_OWNER}`
       }
        order by page.published_at ${order}, page.id ${order}`,
      {
        ...query.filter.params,
        ...(counted?.params ?? {}),
        ...(cursor ? { cursorTime: cursor[0], cursorId: cursor[1] } : {}),
        ...(walk ? { walkLimit: walk.limit, ...walk.condition.params, ...walk.fallback.params } : {}),
        ...(origin?.params ?? {}),
        ...(marksSaved ? { viewerId: query.viewerId } : {}),
        rowLimit: size + 1,
        offset,
      },
    ),
  );
  if (!counted) return pageFromRows(rows, query, { totalCount: total as Promise<number>, totalCountIsLowerBound: false });
  if (query.originRequired && !rows[0]?.origin_known) throw query.originRequired();
  const count = rows[0]?.total_count ?? 0;
  const overCap = counted.cap !== undefined && count > counted.cap;
  return pageFromRows(
    rows.filter((row) => row.id !== null),
    query,
    { totalCount: Promise.resolve(overCap ? (counted.cap as number) : count), totalCountIsLowerBound: overCap },
  );
}

function pageFromRows(rows: PageRow[], query: PageQuery, total: Pick<MixPage, 'totalCount' | 'totalCountIsLowerBound'>): MixPage {
  const page = pageOfRows(rows, query.paging);
  return {
    items: page.rows.map((row) => {
      const mix = mixViewOfRow(row);
      return {
        mix,
        distanceKm: mixPolicy.distanceShown(query.viewerId, mix.owner.id, wholeKm(row.distance_m)),
        ...(row.saved_by_viewer === null ? {} : { savedByViewer: row.saved_by_viewer }),
        cursor: encodeCursor([row.sort_key, row.id]),
      };
    }),
    ...total,
    hasNextPage: page.hasNextPage,
    // A numbered page past the first has pages before it.
    hasPreviousPage: page.hasPreviousPage || query.paging.offset > 0,
  };
}

/** How many mixes match, started alongside the page (see `alongside`). */
export function countOfMixes(em: EntityManager, filter: MixFilter): Promise<number> {
  return alongside(
    em
      .execute<{ count: number }[]>(
        ...named(`select count(*)::int as count from mix where ${filter.conditions.join(' and ')}`, filter.params),
      )
      .then(([row]) => row.count),
  );
}

/**
 * How many mixes match, counting at most `cap + 1` of them (in the page's statement): exact up to `cap`, the lower bound
 * `cap` beyond. Reads at most that many index entries whatever the filter matches.
 */
export function cappedCountOfMixes(filter: MixFilter, cap: number): CountInPage {
  return {
    sql: `select count(*) from (select 1 from mix where ${filter.conditions.join(' and ')} limit ${cap + 1}) counted`,
    params: filter.params,
    cap,
  };
}

/**
 * A count started alongside the page. Whoever reads the page awaits it, where a failure surfaces; this only keeps a
 * failure from going unobserved (an unhandled rejection) when the page itself failed first or nobody asked.
 */
export function alongside(count: Promise<number>): Promise<number> {
  count.catch(() => undefined);
  return count;
}
