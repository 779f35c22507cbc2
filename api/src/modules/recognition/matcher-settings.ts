// The matcher's knobs, and its clock: frames of the analysis (16 ms) and their times in seconds.

import { ANALYSIS_RATE } from './dsp.js';
import { FFT_SIZE, FRAME_SECONDS } from './peaks.js';

export const FRAMES_PER_SECOND = 1 / FRAME_SECONDS;
/** A frame's time is its window's centre. */
const FRAME_CENTRE = FFT_SIZE / 2 / ANALYSIS_RATE;
export const frameToSeconds = (frame: number) => frame * FRAME_SECONDS + FRAME_CENTRE;

export interface MatcherSettings {
  blockSeconds: number;
  /** Blocks per examined window. */
  windowBlocks: number;
  /** Blocks of matches kept for pushing a new segment's start back. */
  historyBlocks: number;
  /** Speeds considered: 1 ± this. */
  maxSpeedChange: number;
  /** Votes a place needs before it is verified. */
  minVotes: number;
  /** Distinct anchors (query time, reference time) on the line for a window to count. */
  minAnchors: number;
  /** Distinct seconds of the window the anchors must cover. */
  minSeconds: number;
  /** Distinct six-semitone bands the anchors' roots must cover. */
  minBands: number;
  /** Frames off the line a match may be. */
  tolerance: number;
  /** Anchors a whole detection needs. */
  minDetectionAnchors: number;
  /** Standard deviations above chance a detection's track's peaks must meet the mix along its line (match-verify.ts; 0: not checked). */
  minEvidence: number;
  /** Seconds without evidence after which a segment is closed. */
  gapSeconds: number;
  /** How far back a new segment's start may move when its track's peaks are found on its line (0: never). */
  refineSeconds: number;
  /** Seconds of the mix judged at a time when moving a start back. */
  refineWindowSeconds: number;
  /** How far above chance (standard deviations) a window's peak coincidences must be to count as the track playing. */
  refineScore: number;
  /** Windows in a row without the track after which the search for an earlier start stops. */
  refineMisses: number;
}

export const DEFAULT_MATCHER_SETTINGS: MatcherSettings = {
  blockSeconds: 4,
  windowBlocks: 4,
  historyBlocks: 12,
  maxSpeedChange: 0.17,
  minVotes: 6,
  minAnchors: 12,
  minSeconds: 4,
  minBands: 2,
  tolerance: 4,
  minDetectionAnchors: 14,
  minEvidence: 5,
  gapSeconds: 20,
  refineSeconds: 40,
  refineWindowSeconds: 4,
  refineScore: 3,
  refineMisses: 4,
};
