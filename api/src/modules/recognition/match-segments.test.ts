import { describe, expect, test } from 'vitest';
import { detectionsOf, type Segment } from './match-segments.js';
import { FRAMES_PER_SECOND, frameToSeconds } from './matcher-settings.js';

const SECOND = FRAMES_PER_SECOND;
const segment = (
  track: number,
  startSeconds: number,
  endSeconds: number,
  count: number,
  line = { at: 0, origin: 0, speed: 1, pitch: 0 },
  evidence: number | null = null,
): Segment => ({
  track,
  line,
  start: startSeconds * SECOND,
  end: endSeconds * SECOND,
  anchors: new Set(),
  count,
  windows: 1,
  referenceStart: 0,
  evidence,
});
const settings = (minDetectionAnchors = 14, minEvidence = 5) => ({ minDetectionAnchors, minEvidence });
const tracks = (closed: Segment[], least = 14) => detectionsOf(closed, settings(least)).map((detection) => detection.track);

describe('segments to detections', () => {
  test('a detection: its times in seconds, its confidence from its anchors, its speed and shift from its line', () => {
    const line = { at: 20 * SECOND, origin: 100 * SECOND, speed: 1.05, pitch: 0.8 };
    const [detection] = detectionsOf([segment(7, 90, 150, 40, line)], settings());
    expect(detection).toEqual({
      track: 7,
      start: frameToSeconds(90 * SECOND),
      end: frameToSeconds(150 * SECOND),
      confidence: 1 - Math.exp(-1),
      speed: 1.05,
      pitchShift: 0.8,
      referenceStart: frameToSeconds(20 * SECOND - 1.05 * 10 * SECOND),
      anchors: 40,
    });
    // Its start before the reference's: the reference from its start.
    expect(detectionsOf([segment(7, 90, 150, 40, { ...line, at: 5 * SECOND })], settings())[0]?.referenceStart).toBe(0);
  });

  test("segments whose track's peaks do not lie along their line are dropped, and weak evidence lowers the confidence", () => {
    // Evidence in standard deviations above chance (lineEvidence): under 5, not music but a chance chain of quads.
    expect(tracks([segment(1, 0, 60, 30, undefined, 4.9), segment(2, 60, 120, 30, undefined, 5), segment(3, 120, 180, 30)])).toEqual([
      2, 3,
    ]);
    const confidence = (evidence: number | null) => detectionsOf([segment(1, 0, 60, 40, undefined, evidence)], settings())[0]?.confidence;
    expect(confidence(5)).toBeCloseTo((1 - Math.exp(-1)) / 2);
    expect(confidence(10)).toBeCloseTo(1 - Math.exp(-1));
    expect(confidence(30)).toBeCloseTo(1 - Math.exp(-1));
    expect(confidence(null)).toBeCloseTo(1 - Math.exp(-1));
    // Verification off: every evidence passes, at full confidence.
    expect(detectionsOf([segment(1, 0, 60, 40, undefined, -3)], settings(14, 0))[0]?.confidence).toBeCloseTo(1 - Math.exp(-1));
  });

  test('weak segments are dropped; the rest come in time order', () => {
    expect(tracks([segment(1, 0, 60, 13), segment(2, 60, 120, 14)])).toEqual([2]);
    expect(tracks([segment(1, 100, 160, 50), segment(2, 0, 60, 20), segment(3, 200, 260, 30)])).toEqual([2, 1, 3]);
    expect(tracks([segment(1, 0, 60, 13)], 13)).toEqual([1]);
    expect(tracks([])).toEqual([]);
  });

  test('of two over the same stretch, the one with under half the anchors of the other is an echo', () => {
    expect(tracks([segment(1, 0, 60, 40), segment(2, 10, 70, 19)])).toEqual([1]);
    expect(tracks([segment(2, 10, 70, 19), segment(1, 0, 60, 40)])).toEqual([1]);
    // Half the anchors exactly: both kept.
    expect(tracks([segment(1, 0, 60, 40), segment(2, 10, 70, 20)])).toEqual([1, 2]);
  });

  test('an overlap of half its length or less is a blend, not an echo', () => {
    // Track 2 lasts 60 s: 30 s under track 1 is half of it; 31 s is more.
    expect(tracks([segment(1, 0, 60, 40), segment(2, 30, 90, 15)])).toEqual([1, 2]);
    expect(tracks([segment(1, 0, 60, 40), segment(2, 29, 89, 15)])).toEqual([1]);
    // Side by side, or one inside the other.
    expect(tracks([segment(1, 0, 60, 40), segment(2, 60, 120, 15)])).toEqual([1, 2]);
    expect(tracks([segment(1, 0, 120, 40), segment(2, 30, 60, 15)])).toEqual([1]);
    expect(tracks([segment(1, 30, 60, 40), segment(2, 0, 120, 15)])).toEqual([2, 1]);
  });

  test('only kept segments silence weaker ones', () => {
    // 3 is an echo of 2 (15 < 0.5 x 32) but 2 is an echo of 1: 3 is judged against 1 alone, which it barely touches.
    expect(tracks([segment(1, 0, 60, 80), segment(2, 20, 80, 32), segment(3, 50, 110, 15)])).toEqual([1, 3]);
  });
});
