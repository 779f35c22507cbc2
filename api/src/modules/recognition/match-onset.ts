// Start refinement: where a track found in the mix began to be heard, judged by its own peaks against the query's.

import { rootPitch, rootTime } from './fingerprint.js';
import type { FingerprintIndex } from './fingerprint-index.js';
import type { Line } from './match-lines.js';
import { FRAMES_PER_SECOND, type MatcherSettings } from './matcher-settings.js';
import type { Peak } from './peaks.js';

/** A query peak coincides with a reference peak this close (frames, semitones). */
const PEAK_FRAMES = 2;
const PEAK_SEMITONES = 0.4;
/** Pitch offsets of the decoy lines that tell how often peaks coincide by chance (off any scale's intervals). */
const DECOY_SHIFTS = [-2.7, -1.3, 1.3, 2.7];
/** Seconds of query peaks kept for moving starts back. */
const PEAK_HISTORY_SECONDS = 120;

/** The query's peaks of the last couple of minutes, in time order, to check a line against a track's own peaks. */
export class PeakHistory {
  private times = new Float32Array(8192);
  private pitches = new Float32Array(8192);
  private first = 0;
  private count = 0;

  add(peaks: readonly Peak[]) {
    const newest = peaks[peaks.length - 1]?.time ?? 0;
    const horizon = newest - PEAK_HISTORY_SECONDS * FRAMES_PER_SECOND;
    while (this.first < this.count && (this.times[this.first] as number) < horizon) this.first += 1;
    if (this.count + peaks.length > this.times.length) {
      // Compact (and grow when more than half is live).
      const live = this.count - this.first;
      const size = Math.max(this.times.length, 2 * (live + peaks.length));
      const times = new Float32Array(size);
      const pitches = new Float32Array(size);
      times.set(this.times.subarray(this.first, this.count));
      pitches.set(this.pitches.subarray(this.first, this.count));
      this.times = times;
      this.pitches = pitches;
      this.first = 0;
      this.count = live;
    }
    for (const peak of peaks) {
      this.times[this.count] = peak.time;
      this.pitches[this.count] = peak.pitch;
      this.count += 1;
    }
  }

  /** The earliest frame still held. */
  get since(): number {
    return this.first < this.count ? (this.times[this.first] as number) : Number.POSITIVE_INFINITY;
  }

  /** Whether a peak lies within PEAK_FRAMES and PEAK_SEMITONES of (time, pitch). */
  has(time: number, pitch: number): boolean {
    return this.find(time, pitch) >= 0;
  }

  /** The time of the first peak within PEAK_FRAMES and PEAK_SEMITONES of (time, pitch), or -1. */
  find(time: number, pitch: number): number {
    const { times, pitches } = this;
    let low = this.first;
    let high = this.count;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((times[mid] as number) < time - PEAK_FRAMES) low = mid + 1;
      else high = mid;
    }
    for (let i = low; i < this.count && (times[i] as number) <= time + PEAK_FRAMES; i += 1)
      if (Math.abs((pitches[i] as number) - pitch) <= PEAK_SEMITONES) return times[i] as number;
    return -1;
  }
}

/** The first index in sorted `list` whose value is at least `value`. */
function lowerBound(list: Uint32Array, value: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((list[mid] as number) < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Speeds (relative steps either way) and offsets (frames either way) tried when aligning a found line to its peaks. */
const ALIGN_SPEED_STEP = 0.002;
const ALIGN_SPEED_STEPS = 20;
const ALIGN_FRAMES = 8;
/** Seconds after a new segment's start whose peaks align its line. */
const ALIGN_SECONDS = 12;

/**
 * The line through a found track's own peaks, near `start`. A new segment's line comes from one window of quad
 * matches, most of them near its end when the track fades in: its speed can be a couple of percent off (quad spans
 * are whole frames), and followed back for ten seconds it misses the track's peaks by more than their ±2 frames, so
 * the start stopped seconds late. Here every speed within ±4% (0.2% apart) and offset within ±4 frames is tried on
 * the track's roots over the first seconds, pivoting at their middle, and the middle of those that find the most
 * query peaks wins.
 */
export function alignLine(roots: Uint32Array, peaks: PeakHistory, line: Line, start: number): Line {
  const from = start;
  const to = start + ALIGN_SECONDS * FRAMES_PER_SECOND;
  const pivot = (from + to) / 2;
  const atPivot = line.at + line.speed * (pivot - line.origin);
  const first = lowerBound(roots, Math.max(0, Math.ceil(line.at + line.speed * (from - line.origin))) << 7);
  const last = lowerBound(roots, Math.max(0, Math.ceil(line.at + line.speed * (to - line.origin))) << 7);
  if (last - first < 10) return line;
  const tried: { found: number; speed: number; at: number }[] = [];
  let most = 0;
  for (let k = -ALIGN_SPEED_STEPS; k <= ALIGN_SPEED_STEPS; k += 1) {
    const speed = line.speed * (1 + k * ALIGN_SPEED_STEP);
    for (let offset = -ALIGN_FRAMES; offset <= ALIGN_FRAMES; offset += 1) {
      const at = atPivot + offset * speed;
      let found = 0;
      for (let i = first; i < last; i += 1) {
        const root = roots[i] as number;
        if (peaks.has(pivot + (rootTime(root) - at) / speed, rootPitch(root) + line.pitch)) found += 1;
      }
      tried.push({ found, speed, at });
      if (found > most) most = found;
    }
  }
  if (most === 0) return line;
  // Peaks match within ±2 frames, so neighbouring speeds and offsets find as many: the middle of the best ones.
  const best = { found: most, speed: 0, at: 0 };
  let count = 0;
  for (const candidate of tried) {
    if (candidate.found < 0.95 * most) continue;
    best.speed += candidate.speed;
    best.at += candidate.at;
    count += 1;
  }
  best.speed /= count;
  best.at /= count;
  // Then least squares on the peaks that line finds (their times are interpolated within a frame): the speed to
  // a fraction of a per mille, which a start followed back for half a minute needs.
  let n = 0;
  let sx = 0;
  let sy = 0;
  let sxx = 0;
  let sxy = 0;
  for (let i = first; i < last; i += 1) {
    const root = roots[i] as number;
    const x = rootTime(root) - best.at;
    const time = peaks.find(pivot + x / best.speed, rootPitch(root) + line.pitch);
    if (time < 0) continue;
    const y = time - pivot;
    n += 1;
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  const spread = sxx - (sx * sx) / n;
  if (n >= 10 && spread > 0) {
    // Query time = pivot + a + b x, x the reference's time from best.at: speed 1 / b, and at pivot the reference is at best.at - a / b.
    const b = (sxy - (sx * sy) / n) / spread;
    const a = (sy - b * sx) / n;
    if (b > 0) {
      best.speed = 1 / b;
      best.at -= a / b;
    }
  }
  return { ...line, at: best.at, origin: pivot, speed: best.speed };
}

/**
 * Where a track found at `start` began to be heard, walking back along its line a second at a time. A track fading
 * in under another is a few decibels down: too few of its quads survive the mix to be found, but many of its single
 * peaks still stand out. So each window is judged by how many of the track's own peaks (its index's roots, mapped
 * through the line) the query has a peak at, against decoy lines a few semitones off that tell the rate by chance.
 * The start moves to the earliest window clearly above chance, until several windows in a row are not.
 */
export function earliestPlaying(
  index: FingerprintIndex,
  peaks: PeakHistory,
  settings: MatcherSettings,
  track: number,
  line: Line,
  start: number,
): number {
  const roots = settings.refineSeconds > 0 ? index.rootsOf?.(track) : undefined;
  if (!roots || roots.length === 0) return start;
  line = alignLine(roots, peaks, line, start);
  const window = settings.refineWindowSeconds * FRAMES_PER_SECOND;
  const limit = Math.max(peaks.since, start - settings.refineSeconds * FRAMES_PER_SECOND);
  const referenceAt = (q: number) => line.at + line.speed * (q - line.origin);
  let earliest = start;
  let misses = 0;
  for (let from = start - FRAMES_PER_SECOND; from >= limit; from -= FRAMES_PER_SECOND) {
    const first = lowerBound(roots, Math.max(0, Math.ceil(referenceAt(from))) << 7);
    const last = lowerBound(roots, Math.max(0, Math.ceil(referenceAt(from + window))) << 7);
    let tried = 0;
    let found = 0;
    let decoys = 0;
    for (let i = first; i < last; i += 1) {
      const root = roots[i] as number;
      const q = line.origin + (rootTime(root) - line.at) / line.speed;
      const pitch = rootPitch(root) + line.pitch;
      tried += 1;
      if (peaks.has(q, pitch)) found += 1;
      for (const shift of DECOY_SHIFTS) if (peaks.has(q, pitch + shift)) decoys += 1;
    }
    const chance = Math.max(0.02, decoys / Math.max(1, tried * DECOY_SHIFTS.length));
    const score = tried === 0 ? 0 : (found - tried * chance) / Math.sqrt(tried * chance * (1 - chance));
    if (score > settings.refineScore) {
      earliest = from;
      misses = 0;
    } else if (++misses > settings.refineMisses) break;
  }
  return earliest;
}
