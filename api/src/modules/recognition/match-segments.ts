// Segments to detections: a track's accepted windows chain into a segment (matcher.ts); once the recording ends, the
// closed segments are judged here.

import { type Line, referenceAt } from './match-lines.js';
import { frameToSeconds, type MatcherSettings } from './matcher-settings.js';

/** A track found in the recording (times in seconds of the recording). */
export interface RawDetection {
  /** The track number the fingerprints were stored under. */
  track: number;
  start: number;
  end: number;
  /** 0 to 1. */
  confidence: number;
  /** Playback speed relative to the reference (1.05: 5% faster). */
  speed: number;
  /** Pitch shift in semitones (about 12 log2(speed) on a turntable, 0 with key lock). */
  pitchShift: number;
  /** Where in the reference the detection starts, seconds. */
  referenceStart: number;
  /** Distinct anchors that support it. */
  anchors: number;
}

/** A track's accepted windows chained together (times in frames of the recording). */
export interface Segment {
  track: number;
  line: Line;
  start: number;
  end: number;
  /** Distinct anchors while the segment is open (dropped when it closes, once counted into `count`). */
  anchors: Set<number>;
  count: number;
  windows: number;
  referenceStart: number;
  /** Once closed, how far above chance its track's peaks lie along its line (lineEvidence), or null when unknown. */
  evidence: number | null;
}

/** How much of a detection's confidence its evidence along the line allows: all of it from twice `minEvidence`. */
const evidenceShare = (evidence: number | null, minEvidence: number) =>
  evidence === null || minEvidence <= 0 ? 1 : Math.min(1, Math.max(0, evidence / (2 * minEvidence)));

/**
 * Closed segments to detections, in time order: those under `minDetectionAnchors` anchors or `minEvidence` dropped,
 * and of two that mostly overlap, the weaker dropped when it has under half the stronger's anchors. The confidence
 * grows with the anchors and is scaled down while the evidence along the line is under twice `minEvidence`.
 */
export function detectionsOf(
  closed: readonly Segment[],
  { minDetectionAnchors, minEvidence }: Pick<MatcherSettings, 'minDetectionAnchors' | 'minEvidence'>,
): RawDetection[] {
  const verified = (s: Segment) => s.evidence === null || minEvidence <= 0 || s.evidence >= minEvidence;
  const strong = closed.filter((s) => s.count >= minDetectionAnchors && verified(s)).sort((a, b) => b.count - a.count);
  const kept: Segment[] = [];
  for (const segment of strong) {
    const length = Math.max(1, segment.end - segment.start);
    // A track played between two others overlaps each by its blends (and by a start found early): only a much
    // weaker segment over the same stretch is the echo of a stronger one.
    const clash = kept.some((other) => {
      const overlap = Math.min(other.end, segment.end) - Math.max(other.start, segment.start);
      return overlap > 0.5 * length && segment.count < 0.5 * other.count;
    });
    if (!clash) kept.push(segment);
  }
  return kept
    .sort((a, b) => a.start - b.start)
    .map((segment) => {
      const { line } = segment;
      return {
        track: segment.track,
        start: frameToSeconds(segment.start),
        end: frameToSeconds(segment.end),
        confidence: (1 - Math.exp(-segment.count / 40)) * evidenceShare(segment.evidence, minEvidence),
        speed: line.speed,
        pitchShift: line.pitch,
        referenceStart: Math.max(0, frameToSeconds(referenceAt(line, segment.start))),
        anchors: segment.count,
      };
    });
}
