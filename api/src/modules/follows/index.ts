// What the other modules may use of follows; the direction is checked by api/.dependency-cruiser.mjs.
export type { FollowCode } from './follows.service.js';
