// Verification of a closed segment: does its track's music lie along its line, at its speed and pitch shift?

import type { FingerprintIndex } from './fingerprint-index.js';
import type { Line } from './match-lines.js';
import { aboveChance, coincidences } from './match-onset.js';
import type { PeakHistory } from './peak-history.js';

/** Roots a segment's stretch must hold for its evidence to be judged. */
const MIN_ROOTS = 20;

/**
 * How far above chance (standard deviations) the query's peaks meet the track's own roots along the segment's line
 * from `from` to `to` (frames; what the peak history still holds, about the last 100 s of the segment), against decoy
 * lines a few semitones off. A segment is a chain of quad matches, and quads of repetitive music (four-on-the-floor
 * drums, a bass on the same notes) can chain into a dozen anchors on a line by chance; the track's single peaks then
 * meet the mix no more often on that line than off it, while along a true play a third of them do, hundreds of
 * times over. Null when the track has too few roots there to judge by.
 */
export function lineEvidence(
  index: FingerprintIndex,
  peaks: PeakHistory,
  track: number,
  line: Line,
  from: number,
  to: number,
): number | null {
  const roots = index.rootsOf?.(track);
  if (!roots || roots.length === 0) return null;
  const stretch = coincidences(roots, peaks, line, Math.max(from, peaks.since), Math.min(to, peaks.until));
  return stretch.tried < MIN_ROOTS ? null : aboveChance(stretch);
}
