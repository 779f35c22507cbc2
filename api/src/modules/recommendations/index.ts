// What the other modules may use of recommendations; the direction is checked by api/.dependency-cruiser.mjs.
export { type ReasonKind, reasonText } from './recommendation.policy.js';
export type { Recommendation, RecommendationsService } from './recommendations.service.js';
