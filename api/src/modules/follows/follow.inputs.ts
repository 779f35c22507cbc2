import { decodeCursor } from '../../shared/cursor.js';
import { cursorPage, idOrNull, pageNumber, parseInput, text } from '../../shared/inputs.js';

/** The input schema of every follows operation, and the page rules of the follow lists. */

/** The SPEC's follow lists answer this many a page. */
export const FOLLOW_PAGE_SIZE = 20;
const MAX_PAGE_SIZE = 100;

export const memberIdInput = idOrNull;
export const userNameInput = text(100);

/** A window of a follow list: the SPEC's REST pages count from 1; GraphQL pages by cursor. */
export type FollowPageRequest = { page: unknown } | { first?: unknown; after?: unknown };

const isOffset = (key: string[]) => key.length === 1 && /^\d{1,7}$/.test(key[0]);

const byCursor = cursorPage(MAX_PAGE_SIZE, FOLLOW_PAGE_SIZE, (cursor) => Number(decodeCursor(cursor, isOffset)[0]) + 1);

export function parseFollowPage(request: FollowPageRequest): { offset: number; limit: number } {
  if ('page' in request) {
    const page = parseInput(pageNumber(1), request.page);
    return { offset: (page - 1) * FOLLOW_PAGE_SIZE, limit: FOLLOW_PAGE_SIZE };
  }
  const { first, after } = parseInput(byCursor, { first: request.first ?? undefined, after: request.after ?? undefined });
  return { offset: after ?? 0, limit: first };
}
