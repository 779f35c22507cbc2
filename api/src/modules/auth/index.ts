// What the other modules may use of auth; the direction is checked by api/.dependency-cruiser.mjs.
export { type LimitName, RateLimits } from './rate-limits.js';
