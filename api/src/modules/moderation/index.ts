// What the other modules may use of moderation; the direction is checked by api/.dependency-cruiser.mjs.
export type { Decision, DecisionDetail, QueueHandler, QueueItemView } from './moderation.service.js';
export { ModerationService } from './moderation.service.js';
