import type { MixCardFieldsFragment, MixTrackFieldsFragment } from '../gql/graphql';
import type { PlayerMix, PlayerTrack } from './player-state';

export const toPlayerTracks = (tracks: readonly MixTrackFieldsFragment[]): PlayerTrack[] =>
  tracks.map((entry) => ({
    startTime: entry.startTime ?? null,
    endTime: entry.endTime ?? null,
    title: entry.track.title,
    artists: entry.track.creators.map((creator) => creator.name).join(', '),
  }));

/** The player's view of a mix card; the player loads the whole tracklist itself when the card has none. */
export function toPlayerMix(mix: MixCardFieldsFragment & { tracks?: readonly MixTrackFieldsFragment[] }): PlayerMix {
  return {
    id: mix.id,
    title: mix.title,
    coverUrl: mix.coverUrl,
    audioUrl: mix.audioUrl,
    ownerDisplayName: mix.owner.displayName || mix.owner.userName || 'Unknown DJ',
    ownerUserName: mix.owner.userName ?? null,
    durationSeconds: mix.durationSeconds ?? null,
    tracks: toPlayerTracks(mix.tracks ?? []),
  };
}
