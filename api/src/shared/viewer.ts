import { UnauthenticatedError } from './errors.js';

/** Who is asking: the member a valid session token names (the skins learn it from the request). */
export interface Viewer {
  id: string;
}

/** Signed-in members only: every private operation of both skins starts here. */
export function requireViewer(viewer: Viewer | null): Viewer {
  if (!viewer) throw new UnauthenticatedError('No token, authorization denied');
  return viewer;
}
