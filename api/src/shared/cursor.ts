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
    throw new InvalidInputError('Invalid cursor: pass the endCursor of an earlier page');
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
