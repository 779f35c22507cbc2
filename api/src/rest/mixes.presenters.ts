import type { SavedTrackView } from '../modules/library/library.service.js';
import type { ListenRecord } from '../modules/listens/listen.views.js';
import { mixPolicy } from '../modules/mixes/mix.policy.js';
import type { MixView } from '../modules/mixes/mix.views.js';
import { expiringInDays, isExpired, isNewUpload } from '../modules/mixes/mix-lifecycle.js';
import type { TracklistVersionView } from '../modules/mixes/tracklist-versions.service.js';
import type { MixTrackView, TrackView } from '../modules/tracks/tracks.service.js';
import type { Services } from '../services.js';
import { locationWire } from './presenters.js';

/** A mix to show, with its distance as the service answered it (the service applies who may see a distance). */
export interface MixShown {
  mix: MixView;
  distanceKm: number | null;
  /** Whether the viewer saved it, when the page that listed it said. */
  savedByViewer?: boolean;
}

const creatorsWire = (track: TrackView) => track.creators.map((creator) => ({ id: creator.id ?? null, name: creator.name }));

/** "Track in a mix" without its times: a catalogue track (a lookup's candidates, a track page) (docs/public-api.md#wire-names). */
export function trackWire(track: TrackView) {
  return {
    _id: track.id,
    track: track.id,
    title: track.title,
    cover: track.cover ?? null,
    creators: creatorsWire(track),
    label: track.label ? { id: track.label.id ?? null, name: track.label.name } : null,
    buy: track.buy,
    // The documented flag is present only for unreleased tracks.
    ...(track.newRelease ? { new_release: true } : {}),
    is_manual: track.isManual,
  };
}

/** "Track in a mix" (docs/public-api.md#wire-names). */
export function mixTrackWire(entry: MixTrackView) {
  return { ...trackWire(entry.track), start_time: entry.startTime, end_time: entry.endTime };
}

/** One tracklist version of the member's published mix (docs/payments.md#tracklist-versions). */
export function tracklistVersionWire(version: TracklistVersionView) {
  return {
    _id: version.id,
    version: version.number,
    created_at: version.createdAt.toISOString(),
    tracks: version.entries.map(mixTrackWire),
  };
}

/** "Saved track" (docs/public-api.md#wire-names). */
export function savedTrackWire(saved: SavedTrackView) {
  const { track } = saved;
  return {
    _id: track.id,
    title: track.title,
    creators: creatorsWire(track),
    label: { name: track.label?.name ?? null },
    release: { cover: track.cover ?? null },
    saved_to_tracks_array_date: saved.savedAt.toISOString(),
  };
}

/**
 * Mixes, with each one's tracks, savers and (for a signed-in viewer) whether they saved it (docs/public-api.md#wire-names): a fixed number of
 * queries for the whole list, however long.
 */
export async function mixesWire(services: Services, shown: MixShown[], viewerId: string | null) {
  const ids = shown.map((item) => item.mix.id);
  const [tracks, savers, savedByViewer] = await Promise.all([
    services.tracks.tracklistsOf(ids),
    services.library.saversOf(
      shown.map((item) => ({ id: item.mix.id, ownerId: item.mix.owner.id })),
      viewerId,
    ),
    // Pages of the feed and of a member's mixes already say which the viewer saved.
    viewerId && shown.some((item) => item.savedByViewer === undefined)
      ? services.library.savedAmong(viewerId, ids)
      : Promise.resolve(new Set<string>()),
  ]);
  const now = new Date();
  return shown.map(({ mix, distanceKm, savedByViewer: savedAsListed }) => {
    const savedBy = savers.get(mix.id);
    return {
      _id: mix.id,
      title: mix.title,
      cover: services.mixes.coverUrl(mix),
      mp3: services.mixes.audioUrl(mix),
      genre: mix.genre,
      user: {
        _id: mix.owner.id,
        user_name: mix.owner.userName ?? null,
        display_name: mix.owner.displayName,
        user_image: services.users.imageUrl(mix.owner),
      },
      tracks: (tracks.get(mix.id) ?? []).map(mixTrackWire),
      status: mix.status,
      createdAt: mix.createdAt.toISOString(),
      publishedAt: mix.publishedAt?.toISOString() ?? null,
      is_new_upload: isNewUpload(mix, now),
      isNewUpload: isNewUpload(mix, now),
      location: locationWire(mix.latitude, mix.longitude),
      ...(savedBy ? { saved_by: savedBy } : {}),
      savedByMe: viewerId ? (savedAsListed ?? savedByViewer.has(mix.id)) : null,
      isOwner: mixPolicy.isOwner(viewerId, mix.owner.id),
      ExpiringIn: expiringInDays(mix, now),
      isExpired: isExpired(mix, now),
      distance: distanceKm,
    };
  });
}

export async function mixWire(services: Services, shown: MixShown, viewerId: string | null) {
  const [wire] = await mixesWire(services, [shown], viewerId);
  return wire;
}

/** Listen record: user, timestamps.start, timestamps.end (docs/public-api.md#wire-names). */
export const listenWire = (listen: ListenRecord) => ({
  _id: listen.id,
  user: listen.userId,
  user_name: listen.userName,
  timestamps: { start: listen.start.toISOString(), end: listen.end?.toISOString() ?? null },
});

/** One mix opened by id (REST `GET /api/mix/{id}`): its owner also gets its listen records (`listeners`). */
export async function mixDetailWire(services: Services, shown: MixShown, viewerId: string | null) {
  const [wire, listeners] = await Promise.all([
    mixWire(services, shown, viewerId),
    services.listens.stats.recordsIfOwner({ id: shown.mix.id, ownerId: shown.mix.owner.id }, viewerId),
  ]);
  return listeners ? { ...wire, listeners: listeners.map(listenWire) } : wire;
}
