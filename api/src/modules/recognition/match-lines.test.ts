import { describe, expect, test } from 'vitest';
import { anchorKey, type Line, onLine, type Point, refitLine, verifyLine } from './match-lines.js';
import { DEFAULT_MATCHER_SETTINGS, FRAMES_PER_SECOND } from './matcher-settings.js';

const settings = DEFAULT_MATCHER_SETTINGS;
const SECOND = FRAMES_PER_SECOND;
const ORIGIN = 10_000;

/** Points on the line r = at + speed (q - ORIGIN): `count` of them over `seconds`, roots alternating between two bands. */
interface Shape {
  at?: number;
  speed?: number;
  pitch?: number;
  /** The speed each match's quad spans say (the line's own by default). */
  v?: number;
  roots?: number[];
}
function onTheLine(count: number, seconds: number, { at = 3000, speed = 1.05, pitch = 0.5, v, roots = [10, 40] }: Shape = {}): Point[] {
  return Array.from({ length: count }, (_, index) => {
    const q = ORIGIN + Math.round((index * seconds * SECOND) / Math.max(1, count - 1));
    return { q, r: at + speed * (q - ORIGIN), v: v ?? speed, p: pitch, root: roots[index % roots.length] as number };
  });
}

describe('a line through the matches', () => {
  test('anchors are whole query and reference frames; a point is on a line within the tolerance and 0.7 semitones', () => {
    expect(anchorKey(3.4, 7.6)).toBe(3 * 524_288 + 8);
    expect(anchorKey(0, 0)).toBe(0);
    const line: Line = { at: 100, origin: 50, speed: 2, pitch: 1 };
    expect(onLine(line, 60, 120, 1, 0)).toBe(true);
    expect(onLine(line, 60, 124, 1.7, 4)).toBe(true);
    expect(onLine(line, 60, 116, 0.3, 4)).toBe(true);
    expect(onLine(line, 60, 124.5, 1, 4)).toBe(false);
    expect(onLine(line, 60, 115.5, 1, 4)).toBe(false);
    expect(onLine(line, 60, 120, 1.75, 4)).toBe(false);
    expect(onLine(line, 60, 120, 0.25, 4)).toBe(false);
  });

  test('accepted: enough anchors on one line, over four seconds, in two bands, one pitch', () => {
    const points = onTheLine(16, 5);
    const found = verifyLine(points, ORIGIN, settings);
    expect(found?.points).toHaveLength(16);
    expect(found?.line.at).toBeCloseTo(3000, 3);
    expect(found?.line.speed).toBeCloseTo(1.05, 5);
    expect(found?.line).toMatchObject({ origin: ORIGIN, pitch: 0.5 });
  });

  test('refused: too few votes, anchors, seconds or bands', () => {
    expect(verifyLine(onTheLine(5, 5), ORIGIN, settings)).toBeNull();
    expect(verifyLine(onTheLine(5, 5), ORIGIN, { ...settings, minVotes: 5, minAnchors: 5 })).not.toBeNull();
    expect(verifyLine(onTheLine(11, 5), ORIGIN, settings)).toBeNull();
    expect(verifyLine(onTheLine(12, 5), ORIGIN, settings)).not.toBeNull();
    // Four distinct seconds are needed: 0 to 3 is four of them, 0 to 2.9 three.
    expect(verifyLine(onTheLine(16, 3), ORIGIN, settings)).not.toBeNull();
    expect(verifyLine(onTheLine(16, 2.9), ORIGIN, settings)).toBeNull();
    expect(verifyLine(onTheLine(16, 5, { roots: [10, 11] }), ORIGIN, settings)).toBeNull();
    expect(verifyLine(onTheLine(16, 5, { roots: [11, 12] }), ORIGIN, settings)).not.toBeNull();
    // Repeated points are one anchor.
    expect(verifyLine([...onTheLine(8, 5), ...onTheLine(8, 5)], ORIGIN, settings)).toBeNull();
  });

  test('points off the line or at another pitch do not count', () => {
    const points = onTheLine(16, 5);
    const off = points.slice(0, 6).map((p) => ({ ...p, r: p.r + 200 }));
    expect(verifyLine([...points, ...off], ORIGIN, settings)?.points).toHaveLength(16);
    const detuned = points.map((p, index) => (index < 4 ? { ...p, p: 1.3 } : p));
    expect(verifyLine(detuned, ORIGIN, settings)?.points).toHaveLength(12);
    expect(verifyLine(detuned, ORIGIN, settings)?.line.pitch).toBe(0.5);
    // Within 0.7 semitones of the line's pitch still counts.
    expect(
      verifyLine(
        points.map((p, index) => (index < 4 ? { ...p, p: 1.2 } : p)),
        ORIGIN,
        settings,
      )?.points,
    ).toHaveLength(16);
  });

  test('the slope is fitted when the points span over two seconds, within the speeds considered', () => {
    // Every match says speed 1, the points say 1.05: over 10 s the points win; over 5 s (a spread under 2 s) the
    // matches' speed stays, and the points drift off the line.
    expect(verifyLine(onTheLine(16, 10, { v: 1 }), ORIGIN, settings)?.line.speed).toBeCloseTo(1.05, 5);
    expect(verifyLine(onTheLine(16, 5, { v: 1 }), ORIGIN, settings)).toBeNull();
    expect(verifyLine(onTheLine(16, 5, { v: 1 }), ORIGIN, { ...settings, tolerance: 20 })?.line.speed).toBe(1);
    const loose = { ...settings, tolerance: 20 };
    expect(verifyLine(onTheLine(16, 10, { speed: 1.2 }), ORIGIN, loose)?.line.speed).toBe(1 + settings.maxSpeedChange);
    expect(verifyLine(onTheLine(16, 10, { speed: 0.8 }), ORIGIN, loose)?.line.speed).toBe(1 - settings.maxSpeedChange);
  });

  test('fewer than three points within the tolerance: nothing', () => {
    const scattered = onTheLine(16, 5).map((p, index) => ({ ...p, r: p.r + index * 40 }));
    expect(verifyLine(scattered, ORIGIN, settings)).toBeNull();
  });
});

describe('a segment refitted to all its anchors', () => {
  const line: Line = { at: 3000, origin: ORIGIN, speed: 1, pitch: 0 };
  const anchors = (drift: number, offset = 0, seconds = 60, step = 31) => {
    const keys = new Set<number>();
    for (let q = ORIGIN; q <= ORIGIN + seconds * SECOND; q += step) keys.add(anchorKey(q, 3000 + offset + (1 + drift) * (q - ORIGIN)));
    return keys;
  };

  test('measures the speed over the whole play', () => {
    const refitted = refitLine(line, anchors(0.01), 4);
    expect(refitted.speed).toBeCloseTo(1.01, 4);
    expect(refitted.at).toBeCloseTo(3000, 0);
    expect(refitted.origin).toBe(ORIGIN);
  });

  test('parallel bands (looped music) share one slope; the offset is the band on the line', () => {
    const keys = new Set([...anchors(0.01), ...anchors(0.01, 500)]);
    const refitted = refitLine(line, keys, 4);
    expect(refitted.speed).toBeCloseTo(1.01, 4);
    expect(refitted.at).toBeCloseTo(3000, 0);
  });

  test('kept as it is: too short a play, bands under three anchors, or no band on the line', () => {
    expect(refitLine(line, anchors(0.01, 0, 8), 4)).toBe(line);
    expect(refitLine(line, anchors(0.01, 0, 60, 4000), 4)).toBe(line);
    expect(refitLine(line, anchors(0.01, 300), 4)).toBe(line);
    expect(refitLine(line, new Set(), 4)).toBe(line);
  });
});
