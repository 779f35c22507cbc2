import { z } from 'zod';
import { decodeCursor } from '../../shared/cursor.js';
import { TRACKLIST_MAX } from '../../shared/domain.js';
import { cursorPage, idOrNull, text } from '../../shared/inputs.js';

/** How many of each tracklist's first entries to read (a card previews four); none means all. */
export const tracklistLimitInput = z
  .number({ error: `first must be a whole number from 1 to ${TRACKLIST_MAX}` })
  .int(`first must be a whole number from 1 to ${TRACKLIST_MAX}`)
  .min(1, `first must be a whole number from 1 to ${TRACKLIST_MAX}`)
  .max(TRACKLIST_MAX, `first must be a whole number from 1 to ${TRACKLIST_MAX}`)
  .nullish();

/** The tracks pages' largest size (GraphQL `first` or `last`). */
export const TRACKS_MAX_PAGE_SIZE = 50;
/** The longest search text: more words than anyone types, few enough to look up at once. */
export const TRACK_SEARCH_MAX_LENGTH = 200;

/** A track's id: one this server handed out, or null (no such track: "not found"). */
export const trackIdInput = idOrNull;

/** The catalogue's sort key is a track's `search_no` (catalogue order), kept in cursors as its digits. */
const isCatalogueKey = (sortKey: string[]) => sortKey.length === 1 && /^\d{1,10}$/.test(sortKey[0] ?? '');

/** Browsing the catalogue: optional search text (blank means everything) and a cursor page. */
export const trackSearchInput = z
  .object({ search: text(TRACK_SEARCH_MAX_LENGTH).nullish() })
  .and(cursorPage(TRACKS_MAX_PAGE_SIZE, (cursor) => Number(decodeCursor(cursor, isCatalogueKey)[0])))
  .transform(({ search, ...window }) => ({ ...window, search: search || null }));
