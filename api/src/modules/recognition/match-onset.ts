// Start refinement: where a track found in the mix began to be heard, judged by its own peaks against the query's.

import { rootPitch, rootTime } from './fingerprint.js';
import type { FingerprintIndex } from './fingerprint-index.js';
import { type Line, referenceAt } from './match-lines.js';
import { FRAMES_PER_SECOND, type MatcherSettings } from './matcher-settings.js';
import { PEAK_SEMITONES, type PeakHistory } from './peak-history.js';
import type { Spectrogram } from './peaks.js';

/** Pitch offsets of the decoy lines that tell how often peaks coincide by chance (off any scale's intervals). */
const DECOY_SHIFTS = [-2.7, -1.3, 1.3, 2.7];

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

/** Where in `roots` (a track's, in time order) the roots lie that `line` puts between query frames `from` and `to`. */
function rootsAlong(roots: Uint32Array, line: Line, from: number, to: number): [first: number, last: number] {
  const rootAt = (q: number) => Math.max(0, Math.ceil(referenceAt(line, q))) << 7;
  return [lowerBound(roots, rootAt(from)), lowerBound(roots, rootAt(to))];
}

/** The query frame at which `line` puts a root. */
const queryFrameOf = (line: Line, root: number) => line.origin + (rootTime(root) - line.at) / line.speed;

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
  const atPivot = referenceAt(line, pivot);
  const [first, last] = rootsAlong(roots, line, from, to);
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
    // Every peak found lies within PEAK_FRAMES of a rising line through 12 s of roots: b is near 1 / speed, never <= 0.
    const b = (sxy - (sx * sy) / n) / spread;
    const a = (sy - b * sx) / n;
    best.speed = 1 / b;
    best.at -= a / b;
  }
  return { ...line, at: best.at, origin: pivot, speed: best.speed };
}

/** Longest repeat of a track's music looked for (seconds), and the share of a stretch's roots a repeat must hold. */
const REPEAT_SECONDS = 120;
const REPEAT_SHARE = 0.5;

/**
 * How far later in the reference (frames) the stretch of roots from frame `from` to `to` comes again, or 0. Loops
 * and repeated sections match the mix equally well, so a line found on a track can sit on an earlier repeat than
 * the one played, and followed back it runs off the reference's beginning while the track still plays. The repeat
 * is the shift at which most of the stretch's roots (time and pitch) find a root again, counted over every pair of
 * roots of the same pitch; it counts when at least REPEAT_SHARE of them do.
 */
export function laterRepeat(roots: Uint32Array, from: number, to: number): number {
  const first = lowerBound(roots, Math.max(0, Math.ceil(from)) << 7);
  const last = lowerBound(roots, Math.max(0, Math.ceil(to)) << 7);
  const reach = Math.round(REPEAT_SECONDS * FRAMES_PER_SECOND);
  const votes = new Uint16Array(reach + 2);
  for (let i = first; i < last; i += 1) {
    const root = roots[i] as number;
    const end = lowerBound(roots, (rootTime(root) + reach + 1) << 7);
    // Roots are in time order and `end` is the first past the reach: every shift is within 0 and reach.
    for (let j = i + 1; j < end; j += 1) {
      const other = roots[j] as number;
      if ((other & 127) !== (root & 127)) continue;
      const shift = rootTime(other) - rootTime(root);
      votes[shift] = (votes[shift] as number) + 1;
    }
  }
  // A root's time is a whole frame on each side: a repeat's pairs spread over neighbouring shifts, so each shift
  // counts its own pairs twice and its neighbours' once (a repeat with every root found scores twice their number).
  let best = 0;
  let most = 0;
  for (let shift = Math.round(FRAMES_PER_SECOND); shift <= reach; shift += 1) {
    const count = (votes[shift - 1] as number) + 2 * (votes[shift] as number) + (votes[shift + 1] as number);
    if (count > most) {
      most = count;
      best = shift;
    }
  }
  return most >= 2 * REPEAT_SHARE * (last - first) && last - first >= 10 ? best : 0;
}

/** Seconds of the mix per bin of the fade-in's evidence, and how far before and after the coarse start it is read. */
const RAMP_BIN_SECONDS = 0.5;
const RAMP_BACK_SECONDS = 8;
const RAMP_AHEAD_SECONDS = 12;

/** One stretch of the mix along a track's line: the track's roots looked for, found, and found on the decoy lines. */
export interface Coincidences {
  /** The stretch's middle (frames). */
  time: number;
  tried: number;
  found: number;
  /** Found on all DECOY_SHIFTS lines together. */
  decoys: number;
}

/** How many of the track's roots between query frames `from` and `to` the query has peaks at, on the line and off it. */
export function coincidences(roots: Uint32Array, peaks: PeakHistory, line: Line, from: number, to: number): Coincidences {
  const [first, last] = rootsAlong(roots, line, from, to);
  let found = 0;
  let decoys = 0;
  for (let i = first; i < last; i += 1) {
    const root = roots[i] as number;
    const q = queryFrameOf(line, root);
    const pitch = rootPitch(root) + line.pitch;
    if (peaks.has(q, pitch)) found += 1;
    for (const shift of DECOY_SHIFTS) if (peaks.has(q, pitch + shift)) decoys += 1;
  }
  return { time: (from + to) / 2, tried: last - first, found, decoys };
}

/** The rate at which a track's roots meet query peaks by chance, from the decoy lines (never under 2%). */
export const chanceOf = (bin: Coincidences) => Math.max(0.02, bin.decoys / Math.max(1, bin.tried * DECOY_SHIFTS.length));

/** How many standard deviations above chance a stretch's roots met the mix (binomial, at the decoys' rate). */
export function aboveChance(bin: Coincidences): number {
  const chance = chanceOf(bin);
  return (bin.found - bin.tried * chance) / Math.sqrt(bin.tried * chance * (1 - chance));
}

/** One short stretch of a fade-in's evidence: its middle (frames), how much it weighs (roots read) and its excess over chance. */
export interface RampBin {
  time: number;
  weight: number;
  excess: number;
}

/** A stretch's share of the track's roots met above chance, weighted by how many roots it tried. */
export const shareAboveChance = (bin: Coincidences): RampBin => ({
  time: bin.time,
  weight: bin.tried,
  excess: bin.tried === 0 ? 0 : bin.found / bin.tried - chanceOf(bin),
});

/**
 * Frames before and after a root at which the same pitch's energy is the mix's level there without the root's onset:
 * about 0.2 and 0.5 s, off the beat, so a beat the outgoing track shares with the root does not count as the root.
 */
const AROUND_FRAMES = [-29, -13, 13, 29];

/**
 * How much louder the query is at the track's roots between query frames `from` and `to` (through the line) than a
 * moment before and after them at the same pitch, in the spectrogram's 3/8 dB steps, averaged over the roots. A
 * root is an onset in the track, so where the track is heard its energy stands above its surroundings, by a little at
 * the very start of a fade where none of its peaks stands out in the mix yet; where only the outgoing track plays,
 * its energy at a pitch is about as high a moment before or after a root as at it. Comparing a pitch with itself over
 * time, not with other pitches at the same moment (the decoy lines of the peaks), keeps a key the two tracks share
 * out of it (tried on the tuning seed: against the decoy pitches the energy rose before the fades began).
 */
export function energyAboveAround(roots: Uint32Array, spectrogram: Spectrogram, line: Line, from: number, to: number): RampBin {
  const [first, last] = rootsAlong(roots, line, from, to);
  let weight = 0;
  let sum = 0;
  for (let i = first; i < last; i += 1) {
    const root = roots[i] as number;
    const q = queryFrameOf(line, root);
    const pitch = rootPitch(root) + line.pitch;
    // A level of -1 is a frame the spectrogram does not hold (its edges).
    const level = spectrogram.level(q, pitch, PEAK_SEMITONES);
    let around = 0;
    let held = level >= 0;
    for (const offset of AROUND_FRAMES) {
      const other = spectrogram.level(q + offset, pitch, PEAK_SEMITONES);
      if (other < 0) held = false;
      around += other;
    }
    if (!held) continue;
    weight += 1;
    sum += level - around / AROUND_FRAMES.length;
  }
  return { time: (from + to) / 2, weight, excess: weight === 0 ? 0 : sum / weight };
}

/**
 * Where a fade-in began, from the track's evidence along its line in short bins (its peak coincidences above chance,
 * or its energy above its surroundings): the time at which a ramp (nothing before it, then rising linearly, then
 * level) fits them best, by least squares over every start and end of the ramp (half a bin apart). A track fading in
 * under another is heard a little more each second: its evidence grows from nothing, so the foot of the ramp that
 * fits the whole rise is its start, where the first second clearly above chance is seconds late (in a short fade) or
 * early (one lucky window where the tracks share a key). Null when no rising ramp fits.
 */
export function fadeInStart(bins: readonly RampBin[]): number | null {
  if (bins.length < 4) return null;
  const step = ((bins[1] as RampBin).time - (bins[0] as RampBin).time) / 2;
  const first = (bins[0] as RampBin).time;
  const last = (bins[bins.length - 1] as RampBin).time;
  let best: { fit: number; start: number } | null = null;
  for (let start = first; start < last; start += step) {
    for (let end = start + step; end <= last + step; end += step) {
      // For this ramp's shape r, the height h = Σ w e r / Σ w r² fits best and removes (Σ w e r)² / Σ w r² of the error.
      let er = 0;
      let rr = 0;
      for (const bin of bins) {
        const r = Math.min(1, Math.max(0, (bin.time - start) / (end - start)));
        er += bin.weight * bin.excess * r;
        rr += bin.weight * r * r;
      }
      // No weight on the ramp (rr 0) leaves er 0 too.
      if (er <= 0) continue;
      const fit = (er * er) / rr;
      if (!best || fit > best.fit) best = { fit, start };
    }
  }
  return best?.start ?? null;
}

/**
 * The earliest of the windows (a second apart, walking back from `start` to `limit`) in which the track's peaks along
 * the line stand clearly above chance, until more than refineMisses windows in a row do not (a window without any
 * of the track's roots, a silence in the reference, is no miss).
 */
function walkBack(roots: Uint32Array, peaks: PeakHistory, settings: MatcherSettings, line: Line, start: number, limit: number): number {
  const window = settings.refineWindowSeconds * FRAMES_PER_SECOND;
  let earliest = start;
  let misses = 0;
  for (let from = start - FRAMES_PER_SECOND; from >= limit; from -= FRAMES_PER_SECOND) {
    const bin = coincidences(roots, peaks, line, from, from + window);
    if (bin.tried === 0) continue;
    if (aboveChance(bin) > settings.refineScore) {
      earliest = from;
      misses = 0;
    } else if (++misses > settings.refineMisses) break;
  }
  return earliest;
}

/**
 * Where a track found at `start` began to be heard. A track fading in under another is a few decibels down: too few
 * of its quads survive the mix to be found, but many of its single peaks still stand out. So the mix is judged by
 * how many of the track's own peaks (its index's roots, mapped through the line) the query has a peak at, against
 * decoy lines a few semitones off that tell the rate by chance: first window by window, walking back (walkBack);
 * when that walk runs off the reference's beginning, again on the line moved to a later repeat of the music
 * (laterRepeat); then the foot of the fade-in's ramp (fadeInStart) around it, where that is earlier: a long fade
 * under EQ rises too slowly for any one window to stand out before it is well under way. With the query's
 * spectrogram, the foot is read twice, from the peaks and from the energy at the track's roots (energyAboveAround),
 * and the start is the mean of the two: their errors are largely independent (one counts peaks that stand out,
 * the other reads every root's level), so their mean strays less than either.
 */
export function earliestPlaying(
  index: FingerprintIndex,
  peaks: PeakHistory,
  settings: MatcherSettings,
  track: number,
  line: Line,
  start: number,
  spectrogram?: Spectrogram,
): number {
  // With refineSeconds 0 the limit is the start itself (nothing moves), and a track without roots finds nothing.
  const roots = index.rootsOf?.(track);
  if (!roots) return start;
  line = alignLine(roots, peaks, line, start);
  const limit = Math.max(peaks.since, start - settings.refineSeconds * FRAMES_PER_SECOND);
  const firstRoot = rootTime(roots[0] as number);
  let earliest = walkBack(roots, peaks, settings, line, start, limit);
  for (let moves = 0; moves < 4 && referenceAt(line, earliest - FRAMES_PER_SECOND) < firstRoot; moves += 1) {
    const repeat = laterRepeat(roots, referenceAt(line, start), referenceAt(line, start + ALIGN_SECONDS * FRAMES_PER_SECOND));
    if (repeat === 0) break;
    const later = { ...line, at: line.at + repeat };
    const found = walkBack(roots, peaks, settings, later, start, limit);
    if (found >= earliest) break;
    line = later;
    earliest = found;
  }
  const bin = RAMP_BIN_SECONDS * FRAMES_PER_SECOND;
  const byPeaks: RampBin[] = [];
  const byEnergy: RampBin[] = [];
  const until = Math.min(peaks.until, earliest + RAMP_AHEAD_SECONDS * FRAMES_PER_SECOND);
  for (let from = Math.max(limit, earliest - RAMP_BACK_SECONDS * FRAMES_PER_SECOND); from + bin <= until; from += bin) {
    byPeaks.push(shareAboveChance(coincidences(roots, peaks, line, from, from + bin)));
    if (spectrogram) byEnergy.push(energyAboveAround(roots, spectrogram, line, from, from + bin));
  }
  const footOr = (ramp: number | null) => (ramp === null ? earliest : Math.max(limit, Math.min(earliest, ramp)));
  const fromPeaks = footOr(fadeInStart(byPeaks));
  return spectrogram ? (fromPeaks + footOr(fadeInStart(byEnergy))) / 2 : fromPeaks;
}
