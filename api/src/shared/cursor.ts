import { InvalidInputError } from './errors.js';

/**
 * Opaque keyset cursors for paged lists: the sort key of the last row a page showed, so the next page starts right
 * after it even when rows were added in between (offsets would repeat or skip rows).
 */
export function encodeCursor(sortKey: string[]): string {
  return Buffer.from(JSON.stringify(sortKey)).toString('base64url');
}

/** The sort key inside a cursor; a 400 for anything that is not a cursor this server handed out. */
export function decodeCursor(cursor: string, isValid: (sortKey: string[]) => boolean): string[] {
  let sortKey: unknown;
  try {
    sortKey = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    sortKey = null;
  }
  if (!Array.isArray(sortKey) || !sortKey.every((part) => typeof part === 'string') || !isValid(sortKey)) {
    throw new InvalidInputError('Invalid cursor: pass a cursor of an earlier page');
  }
  return sortKey;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// PostgreSQL timestamps have microseconds; JavaScript dates only milliseconds, so the key keeps the database's text.
const TIMESTAMP_US = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

/** The commonest sort key: a timestamp (newest first) and an id to break ties. */
export const isTimestampAndId = (sortKey: string[]): boolean => sortKey.length === 2 && TIMESTAMP_US.test(sortKey[0]) && isUuid(sortKey[1]);

/** SQL rendering a timestamptz column as the exact text `isTimestampAndId` accepts. */
export const timestampKeySql = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Where a page sits in its list, as Relay's PageInfo tells it. */
export interface PageEnds {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
}

/**
 * How to read a keyset window of a list sorted `descending` (or ascending) by its key: forward, the rows past the
 * cursor in the list's order; backward, the rows before it, read in reverse order from the cursor (so an index serves
 * both), `size + 1` of them either way. `pageOfRows` puts them back in the list's order.
 */
export function keysetReading(window: { backward: boolean }, descending: boolean): { beyondCursor: '<' | '>'; order: 'asc' | 'desc' } {
  const readsDown = descending !== window.backward;
  return { beyondCursor: readsDown ? '<' : '>', order: readsDown ? 'desc' : 'asc' };
}

/**
 * The page of rows read as `keysetReading` says (up to `size + 1`), in the list's order, and where it sits: the extra
 * row tells whether more lie in the reading direction; the other way, items lie beyond the page exactly when it started
 * from a cursor (that cursor's item at least), which Relay lets a page report without counting.
 */
export function pageOfRows<Row>(
  rows: readonly Row[],
  window: { size: number; backward: boolean; cursor: unknown },
): PageEnds & { rows: Row[] } {
  const more = rows.length > window.size;
  const shown = rows.slice(0, window.size);
  const fromCursor = window.cursor !== null;
  return window.backward
    ? { rows: shown.reverse(), hasPreviousPage: more, hasNextPage: fromCursor }
    : { rows: shown, hasNextPage: more, hasPreviousPage: fromCursor };
}
