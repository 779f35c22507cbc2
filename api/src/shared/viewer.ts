import { UnauthenticatedError } from './errors.js';

/** Who is asking: the member a valid session token names (the skins learn it from the request). */
export interface Viewer {
  id: string;
  /** The session the request's token carries (`sid`): what signing out ends. */
  sessionId: string;
}

/** Signed-in members only: every private operation of both skins starts here. */
export function requireViewer(viewer: Viewer | null): Viewer {
  if (!viewer) throw new UnauthenticatedError('No token, authorization denied');
  return viewer;
}
