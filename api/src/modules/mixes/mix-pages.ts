import type { EntityManager } from '@mikro-orm/postgresql';
import { encodeCursor, keysetReading, pageOfRows, timestampKeySql } from '../../shared/cursor.js';
import { named } from '../../shared/sql.js';
import type { MixPaging } from './mix.inputs.js';
import { mixPolicy } from './mix.policy.js';
import { MIX_COLUMNS, type MixPage, type MixRow, metresToKm, mixViewOfRow, WITH_OWNER } from './mix.views.js';

/** A place on the earth, in degrees. */
export interface Point {
  latitude: number;
  longitude: number;
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
  total_count?: number;
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
  /** Where distances are measured from; none means no distances. */
  distanceFrom: Point | null;
  paging: MixPaging;
  /**
   * Read only the first `limit` rows of `filter` in the reading direction (the newest, or backward the oldest past the
   * cursor), and keep those meeting `condition` (so a sparse filter cannot read the whole index).
   */
  walk?: { limit: number; condition: MixFilter };
  viewerId: string | null;
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
  const where = [
    ...query.filter.conditions,
    ...(cursor ? [`(published_at, id) ${beyondCursor} (:cursorTime::timestamptz, :cursorId::uuid)`] : []),
  ];
  const source = query.walk
    ? `(select id, published_at, geo from mix where ${where.join(' and ')} order by published_at ${order}, id ${order} limit :walkLimit) recent
        where ${query.walk.condition.conditions.join(' and ')}`
    : `mix where ${where.join(' and ')}`;
  const distance = query.distanceFrom ? 'earth_distance(geo_earth(:fromLatitude, :fromLongitude), geo)' : 'null::float8';
  const counted = total instanceof Promise ? null : total;
  // With the count in the statement, its one row comes back even when the page is empty (the page's columns null).
  const rows = await em.execute<PageRow[]>(
    ...named(
      `with page as materialized (
         select id, published_at, ${timestampKeySql('published_at')} as sort_key, ${distance} as distance_m
           from ${source}
          order by published_at ${order}, id ${order}
          limit :rowLimit offset :offset)
       ${
         counted
           ? `, total as materialized (select (${counted.sql})::int as total_count)
       select ${MIX_COLUMNS}, page.sort_key, page.distance_m, total.total_count
         from total left join (page join mix m on m.id = page.id ${WITH_OWNER}) on true`
           : `select ${MIX_COLUMNS}, page.sort_key, page.distance_m
         from page join mix m on m.id = page.id ${WITH_OWNER}`
       }
        order by page.published_at ${order}, page.id ${order}`,
      {
        ...query.filter.params,
        ...(counted?.params ?? {}),
        ...(cursor ? { cursorTime: cursor[0], cursorId: cursor[1] } : {}),
        ...(query.walk ? { walkLimit: query.walk.limit, ...query.walk.condition.params } : {}),
        ...(query.distanceFrom ? { fromLatitude: query.distanceFrom.latitude, fromLongitude: query.distanceFrom.longitude } : {}),
        rowLimit: size + 1,
        offset,
      },
    ),
  );
  if (!counted) return pageFromRows(em, rows, query, { totalCount: total as Promise<number>, totalCountIsLowerBound: false });
  const count = rows[0]?.total_count ?? 0;
  const overCap = counted.cap !== undefined && count > counted.cap;
  return pageFromRows(
    em,
    rows.filter((row) => row.id !== null),
    query,
    { totalCount: Promise.resolve(overCap ? (counted.cap as number) : count), totalCountIsLowerBound: overCap },
  );
}

function pageFromRows(
  em: EntityManager,
  rows: PageRow[],
  query: PageQuery,
  total: Pick<MixPage, 'totalCount' | 'totalCountIsLowerBound'>,
): MixPage {
  const page = pageOfRows(rows, query.paging);
  return {
    items: page.rows.map((row) => {
      const mix = mixViewOfRow(em, row);
      return {
        mix,
        distanceKm: mixPolicy.distanceShown(query.viewerId, mix.owner.id, metresToKm(row.distance_m)),
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
