/**
 * Location privacy (issue 26), the part every module shares. A member's point is stored as given, but others only ever
 * meet the centre of the ~2 km grid cell holding it (app_user's `cell_*` columns; a mix stores only its owner's cell),
 * and distances are answered in whole kilometres. See Migration20261204000000_location_cells for the grid.
 */

/** SQL: metres between the cells of two members (rows of app_user aliased `a` and `b`); null when either is unknown. */
export const cellDistanceSql = (a: string, b: string): string => `earth_distance(${a}.cell_geo, ${b}.cell_geo)`;

/** A distance as answered anywhere: whole kilometres (finer figures would only describe the grid); null when unknown. */
export const wholeKm = (metres: number | null | undefined): number | null =>
  typeof metres === 'number' ? Math.round(metres / 1000) : null;
