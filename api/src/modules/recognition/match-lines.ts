// Alignment and verification: a line (reference time = start + speed x query time) fitted to a track's matches, and
// accepted only when enough distinct anchors lie on it, spread over several seconds and across the spectrum, with one
// consistent pitch shift that agrees with the speed (turntable) or is nil (key lock).

import { FRAMES_PER_SECOND, type MatcherSettings } from './matcher-settings.js';

export interface Point {
  q: number;
  r: number;
  v: number;
  p: number;
  root: number;
}

export interface Line {
  /** Reference time (frames) at query time `origin`. */
  at: number;
  origin: number;
  speed: number;
  pitch: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

export const anchorKey = (q: number, r: number) => Math.round(q) * 524_288 + Math.round(r);
export const onLine = (line: Line, q: number, r: number, p: number, tolerance: number) =>
  Math.abs(r - (line.at + line.speed * (q - line.origin))) <= tolerance && Math.abs(p - line.pitch) <= 0.7;

/** Fits a line to the points and checks it is real music, not coincidence. */
export function verifyLine(points: Point[], origin: number, settings: MatcherSettings): { line: Line; points: Point[] } | null {
  if (points.length < settings.minVotes) return null;
  const maxSpeed = 1 + settings.maxSpeedChange;
  const minSpeed = 1 - settings.maxSpeedChange;
  let speed = median(points.map((p) => p.v));
  let at = median(points.map((p) => p.r - speed * (p.q - origin)));
  let inliers = points;
  for (const tolerance of [3 * settings.tolerance, 2 * settings.tolerance, settings.tolerance]) {
    inliers = points.filter((p) => Math.abs(p.r - (at + speed * (p.q - origin))) <= tolerance);
    if (inliers.length < 3) return null;
    // Least squares on the inliers, when they span enough time to tell the slope.
    let sq = 0;
    let sr = 0;
    for (const p of inliers) {
      sq += p.q - origin;
      sr += p.r;
    }
    const mq = sq / inliers.length;
    const mr = sr / inliers.length;
    let sqq = 0;
    let sqr = 0;
    for (const p of inliers) {
      sqq += (p.q - origin - mq) ** 2;
      sqr += (p.q - origin - mq) * (p.r - mr);
    }
    const spread = Math.sqrt(sqq / inliers.length);
    if (spread > 2 * FRAMES_PER_SECOND) speed = Math.min(maxSpeed, Math.max(minSpeed, sqr / sqq));
    at = mr - speed * mq;
  }
  const pitch = median(inliers.map((p) => p.p));
  inliers = inliers.filter((p) => Math.abs(p.p - pitch) <= 0.7);
  const turntable = 12 * Math.log2(speed);
  if (Math.abs(pitch) > 0.5 && Math.abs(pitch - turntable) > 0.5) return null;
  const anchors = new Set<number>();
  const seconds = new Set<number>();
  const bands = new Set<number>();
  for (const p of inliers) {
    anchors.add(anchorKey(p.q, p.r));
    seconds.add(Math.floor(p.q / FRAMES_PER_SECOND));
    bands.add(Math.floor(p.root / 6));
  }
  if (anchors.size < settings.minAnchors || seconds.size < settings.minSeconds || bands.size < settings.minBands) return null;
  return { line: { at, origin, speed, pitch }, points: inliers };
}
