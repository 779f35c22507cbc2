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
/** The reference frame `line` puts at query frame `q`. */
export const referenceAt = (line: Line, q: number) => line.at + line.speed * (q - line.origin);
export const onLine = (line: Line, q: number, r: number, p: number, tolerance: number) =>
  Math.abs(r - referenceAt(line, q)) <= tolerance && Math.abs(p - line.pitch) <= 0.7;

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

/**
 * The line refitted to all of a segment's anchors (keys of anchorKey), so its speed is measured over the whole play,
 * not one window. Looped music gives windows lines at several places of the reference (a bar or a phrase apart): the
 * anchors form parallel bands. Each band keeps its own offset and all share one slope (least squares within bands).
 */
export function refitLine(line: Line, anchors: ReadonlySet<number>, tolerance: number): Line {
  const points: { x: number; e: number }[] = [];
  for (const key of anchors) {
    const q = Math.floor(key / 524_288);
    const x = q - line.origin;
    points.push({ x, e: key - q * 524_288 - (line.at + line.speed * x) });
  }
  points.sort((a, b) => a.e - b.e);
  let sxx = 0;
  let sxe = 0;
  let own: { x: number; e: number } | null = null;
  for (let from = 0; from < points.length; ) {
    let to = from + 1;
    while (to < points.length && (points[to] as { e: number }).e - (points[to - 1] as { e: number }).e <= 3 * tolerance) to += 1;
    const band = points.slice(from, to);
    from = to;
    if (band.length < 3) continue;
    const mx = band.reduce((sum, p) => sum + p.x, 0) / band.length;
    const me = band.reduce((sum, p) => sum + p.e, 0) / band.length;
    for (const p of band) {
      sxx += (p.x - mx) ** 2;
      sxe += (p.x - mx) * (p.e - me);
    }
    if (band.some((p) => Math.abs(p.e) <= tolerance)) own = { x: mx, e: me };
  }
  if (!own || sxx < (4 * FRAMES_PER_SECOND) ** 2 * 10) return line;
  const drift = sxe / sxx;
  return { ...line, speed: line.speed + drift, at: line.at + own.e - drift * own.x };
}
