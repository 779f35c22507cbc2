/**
 * Who may search, and what it may find (docs/search.md#who-finds-what). Anyone may search, signed in or not, within
 * the public rate limits; only what anyone may see is found: visible mixes (the mixes' own rule, VISIBLE_MIX_SQL,
 * checked on every search), members with a user name, catalogue tracks, and tracks typed by hand while a visible mix plays them.
 */
/** The operations (GraphQL search and searchSuggestions, REST GET /api/search and /api/search/suggestions) are public. */
export const searchPolicy = {
  /** The distance filter measures from the viewer's own stored place (its cell): signed out, or without one, there is none. */
  distanceOrigin(
    viewer: { cellLatitude: number | null; cellLongitude: number | null } | null,
  ): { latitude: number; longitude: number } | null {
    if (!viewer || viewer.cellLatitude === null || viewer.cellLongitude === null) return null;
    return { latitude: viewer.cellLatitude, longitude: viewer.cellLongitude };
  },
};
