import { RecognitionErrors } from './recognition.errors.js';

/**
 * Who may give a track its reference audio (the recording recognition matches mixes against), in one place.
 *
 * Tracks have no owner column. What the data model says about who a track belongs to is its creators and its label
 * (a track, as docs/public-api.md#wire-names shows it: creators are `{ id, name }`, label is `{ id, name }`): a member owns a track when one of its
 * creators' ids, or its label's id, is the member's id - a catalogue import links a track to a member's account by
 * giving the member's id there. A manual track (typed by an uploader into their tracklist: Skip saves the typed rows
 * as tracks typed by hand, docs/upload.md#step-2-add-tracks) also belongs to the member who typed it: the one owner of the mixes whose
 * tracklists hold it (a DJ / creator playing an unreleased track of their own). User types grant nothing (docs/permissions.md#user-types-grant-nothing).
 * Anyone else is refused, and a track nobody can see is not found.
 */
export interface ReferenceTrackFacts {
  isManual: boolean;
  /** One of the track's creators' ids, or its label's id, is the viewer's. */
  namesViewer: boolean;
  /** Owners of the mixes whose tracklists hold the track. */
  tracklistOwners: string[];
}

export const referencePolicy = {
  owns(track: ReferenceTrackFacts, viewerId: string): boolean {
    if (track.namesViewer) return true;
    return track.isManual && track.tracklistOwners.length === 1 && track.tracklistOwners[0] === viewerId;
  },

  assertMayAddReference(track: ReferenceTrackFacts | null, viewerId: string): void {
    if (!track) throw RecognitionErrors.trackNotFound();
    if (!referencePolicy.owns(track, viewerId)) throw RecognitionErrors.notYourTrack();
  },
};
