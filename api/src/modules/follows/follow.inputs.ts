import { decodeCursor } from '../../shared/cursor.js';
import { type CursorWindow, cursorPage, idOrNull, pageNumber, parseInput, text } from '../../shared/inputs.js';

/** The input schema of every follows operation, and the page rules of the follow lists. */

/** The documented follow lists answer this many a page. */
export const FOLLOW_PAGE_SIZE = 20;
const MAX_PAGE_SIZE = 100;

export const memberIdInput = idOrNull;
export const userNameInput = text(100);

/** A window of a follow list: the REST pages count from 1; GraphQL pages by cursor, either way. */
export type FollowPageRequest = { page: unknown } | { first?: unknown; after?: unknown; last?: unknown; before?: unknown };

/** A follow list's cursor is an entry's position in the list (from 0). */
const isPosition = (key: string[]) => key.length === 1 && /^\d{1,7}$/.test(key[0]);

const byCursor = cursorPage(MAX_PAGE_SIZE, (cursor) => Number(decodeCursor(cursor, isPosition)[0]));

/** Positions of a follow list: a numbered page's, or a cursor window (whose backward end needs the list's length). */
export type FollowWindow = { offset: number; limit: number } | CursorWindow<number>;

export function parseFollowPage(request: FollowPageRequest): FollowWindow {
  if ('page' in request) {
    const page = parseInput(pageNumber(1), request.page);
    return { offset: (page - 1) * FOLLOW_PAGE_SIZE, limit: FOLLOW_PAGE_SIZE };
  }
  return parseInput(byCursor, request);
}
