import { UnauthenticatedError } from '../../shared/errors.js';
import type { Viewer } from './tokens.js';

/** Signed-in members only: every private operation of both skins starts here. */
export function requireViewer(viewer: Viewer | null): Viewer {
  if (!viewer) throw new UnauthenticatedError('No token, authorization denied');
  return viewer;
}
