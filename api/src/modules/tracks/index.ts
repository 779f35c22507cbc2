// What the other modules may use of tracks; the direction is checked by api/.dependency-cruiser.mjs.

// The catalogue lookup's forgiveness (typo budgets, deletion keys, normalising), reused by search.
export { fold, words } from './catalogue/normalise.js';
export { wordMatch } from './catalogue/score.js';
export { deletionKeys, typoBudget } from './catalogue/typos.js';
export { creatorKey } from './creator-key.js';
export { type Creator, type ITrack, Track } from './track.entity.js';
export { trackIdInput } from './track.inputs.js';
export { type MixTrackView, TRACK_COLUMNS, type TrackRow, type TracksService, type TrackView, trackView } from './tracks.service.js';
