// What the other modules may use of trust; the direction is checked by api/.dependency-cruiser.mjs.

export { TrustService } from './trust.service.js';
export type { TrustNotificationKind, TrustPorts } from './trust-ports.js';
