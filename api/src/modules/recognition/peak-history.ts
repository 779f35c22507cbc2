// The query's peaks of the last couple of minutes, which a found track's own peaks are checked against (where it
// began to be heard, match-onset.ts; whether it is really there, match-verify.ts).

import { FRAMES_PER_SECOND } from './matcher-settings.js';
import type { Peak } from './peaks.js';

/** A query peak coincides with a reference peak this close (frames, semitones). */
export const PEAK_FRAMES = 2;
export const PEAK_SEMITONES = 0.4;
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

  /** The newest frame held. */
  get until(): number {
    return this.first < this.count ? (this.times[this.count - 1] as number) : Number.NEGATIVE_INFINITY;
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
