import { decodeCursor, isTimestampAndId } from '../../shared/cursor.js';
import { cursorPage, idOrNull } from '../../shared/inputs.js';

/** The input schema of every notifications operation. */

const MAX_PAGE_SIZE = 100;

export const notificationIdInput = idOrNull;

/** A page of the list, newest first: how many, after (or before) which notification (its time and id). */
export const notificationPageInput = cursorPage(MAX_PAGE_SIZE, (cursor) => decodeCursor(cursor, isTimestampAndId));
