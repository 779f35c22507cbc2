// What the other modules may use of mail; the direction is checked by api/.dependency-cruiser.mjs.
export type { Mailer } from './mailer.js';
export { claimDecisionMail, passwordResetMail, trustMail } from './templates.js';
