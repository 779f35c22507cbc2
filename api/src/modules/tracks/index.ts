// What the other modules may use of tracks; the direction is checked by api/.dependency-cruiser.mjs.
export { creatorKey } from './creator-key.js';
export { type Creator, type ITrack, Track } from './track.entity.js';
export { trackIdInput } from './track.inputs.js';
export { type MixTrackView, TRACK_COLUMNS, type TrackRow, type TracksService, type TrackView, trackView } from './tracks.service.js';
