import { ForbiddenError } from '../../shared/errors.js';
import type { Viewer } from '../../shared/viewer.js';

export const libraryPolicy = {
  /** A library (saved mixes and tracks, the current mix) is its member's alone: nobody reads another's. */
  assertOwnLibrary(viewer: Viewer, libraryOwnerId: string): void {
    if (viewer.id !== libraryOwnerId) throw new ForbiddenError('Only you may see your library');
  },
};
