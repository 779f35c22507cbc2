import { decodeCursor, isTimestampAndId } from '../../shared/cursor.js';
import { cursorPage, idOrNull } from '../../shared/inputs.js';

/** The input schema of every notifications operation. */

export const NOTIFICATION_PAGE_SIZE = 20;
const MAX_PAGE_SIZE = 100;

export const notificationIdInput = idOrNull;

/** A page of the list, newest first: how many, and after which notification (its time and id). */
export const notificationPageInput = cursorPage(MAX_PAGE_SIZE, NOTIFICATION_PAGE_SIZE, (cursor) => {
  const [createdAt, id] = decodeCursor(cursor, isTimestampAndId);
  return { createdAt, id };
});
