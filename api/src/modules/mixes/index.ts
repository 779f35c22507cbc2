// What the other modules may use of mixes; the direction is checked by api/.dependency-cruiser.mjs.
export { lockOwnMix } from './commands/own-mix.js';
export { tracklistVersionInForce } from './commands/tracklist-versions.js';
export { type IMix, Mix, type WAVEFORM_STATES } from './mix.entity.js';
export { MixErrors } from './mix.errors.js';
export { type MixPageRequest, mixIdInput, parseMixPage } from './mix.inputs.js';
export {
  type FileAccess,
  type MixAccessFacts,
  mixPolicy,
  OWNER_SUSPENDED_SQL,
  PUBLISHED_ACTIVE_MIX_SQL,
  UNHELD_MIX_SQL,
  VISIBLE_MIX_SQL,
} from './mix.policy.js';
export { MIX_COLUMNS, type MixPage, type MixRow, type MixView, mixViewOf, mixViewOfRow, WITH_OWNER } from './mix.views.js';
export { expiringInDays, hostingEnds, isExpired } from './mix-lifecycle.js';
export { MixTrack } from './mix-track.entity.js';
export type { MixesService } from './mixes.service.js';
export type { TracklistVersionView } from './tracklist-versions.service.js';
