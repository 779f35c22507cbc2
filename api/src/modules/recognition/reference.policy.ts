import { type Role, rolePolicy } from '../roles/index.js';
import { RecognitionErrors } from './recognition.errors.js';

/**
 * Who may give a track its reference audio (the recording recognition matches mixes against), and when a reference
 * waits for a moderator instead (docs/creators.md#reference-audio).
 *
 * The people who own the music: a member verified (an approved creator claim) as one of the track's creators or as its
 * label, or a moderator or operator. Nobody else: not the DJs who play it, not the member who typed a manual track
 * (typing a name proves nothing), and user types grant nothing (docs/permissions.md#user-types-grant-nothing). A track
 * nobody can see is not found.
 */
export interface ReferenceTrackFacts {
  /** The viewer holds one of the track's creators or its label (creators.holdsTrack). */
  holdsTrack: boolean;
  role: Role;
}

/** The indexed track the new audio already matches, if any, and whether the uploader holds that one too. */
export interface ReferenceMatch {
  trackId: string;
  heldByViewer: boolean;
}

/** The share of a new reference's fingerprints found on one other track that makes it "the same audio". */
export const DUPLICATE_SHARE = 0.2;
/** Below this many shared fingerprints no two recordings count as one, whatever the share. */
export const DUPLICATE_MIN_HITS = 50;

export const referencePolicy = {
  mayChange(track: ReferenceTrackFacts): boolean {
    return track.holdsTrack || rolePolicy.canModerate(track.role);
  },

  assertMayChange(track: ReferenceTrackFacts | null): void {
    if (!track) throw RecognitionErrors.trackNotFound();
    if (!referencePolicy.mayChange(track)) throw RecognitionErrors.notYourTrack();
  },

  /** Whether shared fingerprints make the new audio the same recording as another track's reference. */
  isDuplicate(hits: number, fingerprints: number): boolean {
    return hits >= DUPLICATE_MIN_HITS && hits >= fingerprints * DUPLICATE_SHARE;
  },

  /**
   * Audio that already matches a track the uploader does not hold goes to the moderation queue instead of the index:
   * otherwise anyone verified for one track could make recognition credit their track for another owner's music.
   */
  needsReview(match: ReferenceMatch | null): boolean {
    return match !== null && !match.heldByViewer;
  },
};
