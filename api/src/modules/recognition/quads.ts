// Quads: a root peak A, a peak B after it and two peaks C and D between them in time, the shapes fingerprints hash.

import { BLOCK_FRAMES, type Peak } from './peaks.js';

/** Quad geometry, in frames and semitones. */
export const QUAD = {
  minSpan: 20,
  maxSpan: 80,
  /** C, D and B stay within this many semitones of A. */
  range: 12,
  /** The query's window is wider by this factor both ways: speeds up to ±16% keep their quads inside it. */
  stretch: 1.2,
};

export type Mode = 'reference' | 'query';

export interface QuadSettings {
  /** B candidates per root (the strongest in the window). */
  bCandidates: number;
  /** C and D come from this many of the strongest peaks between A and B. */
  betweenCandidates: number;
}

/** One quad as the query sees it: continuous values, so lookups can try the neighbouring cells too. */
export interface Quad {
  /** A's time, frames. */
  time: number;
  /** A's pitch, semitones. */
  pitch: number;
  /** B's time minus A's, frames. */
  span: number;
  xC: number;
  xD: number;
  /** B, C, D pitch minus A's, semitones. */
  dB: number;
  dC: number;
  dD: number;
}

/**
 * The first `count` entries of `top` are the louder of the peaks offered so far, louder first, in offering order
 * among equals (what a stable sort by level then a cut gives, without sorting every candidate). Returns the new count.
 */
function offer(top: Peak[], count: number, limit: number, peak: Peak): number {
  let at = count;
  while (at > 0 && (top[at - 1] as Peak).level < peak.level) at -= 1;
  if (at >= limit) return count;
  const kept = Math.min(limit, count + 1);
  for (let i = kept - 1; i > at; i -= 1) top[i] = top[i - 1] as Peak;
  top[at] = peak;
  return kept;
}

/**
 * Builds quads from peaks in time order, each root once all peaks its window can hold have arrived. The quad handed
 * to `emit` is valid during the call only (one object is reused: a query forms millions); copy it to keep it.
 */
export class QuadBuilder {
  private peaks: Peak[] = [];
  private next = 0;
  private readonly minSpan: number;
  private readonly maxSpan: number;
  private readonly candidates: Peak[] = [];
  private readonly between: Peak[] = [];
  private readonly quad: Quad = { time: 0, pitch: 0, span: 0, xC: 0, xD: 0, dB: 0, dC: 0, dD: 0 };

  constructor(
    private readonly settings: QuadSettings,
    mode: Mode,
    private readonly emit: (quad: Quad) => void,
  ) {
    this.minSpan = mode === 'query' ? QUAD.minSpan / QUAD.stretch : QUAD.minSpan;
    this.maxSpan = mode === 'query' ? QUAD.maxSpan * QUAD.stretch : QUAD.maxSpan;
  }

  add(peaks: Peak[]) {
    for (const peak of peaks) this.peaks.push(peak);
    const newest = this.peaks[this.peaks.length - 1]?.time ?? 0;
    // Roots whose window is complete (peaks arrive in blocks: allow a block of disorder).
    while (this.next < this.peaks.length && (this.peaks[this.next] as Peak).time + this.maxSpan + BLOCK_FRAMES < newest) {
      this.root(this.next);
      this.next += 1;
    }
    if (this.next > 4096) {
      this.peaks = this.peaks.slice(this.next);
      this.next = 0;
    }
  }

  finish() {
    while (this.next < this.peaks.length) {
      this.root(this.next);
      this.next += 1;
    }
  }

  private root(index: number) {
    const { peaks, candidates, between, settings, quad } = this;
    const a = peaks[index] as Peak;
    let bCount = 0;
    for (let j = index + 1; j < peaks.length; j += 1) {
      const p = peaks[j] as Peak;
      const dt = p.time - a.time;
      if (dt > this.maxSpan) {
        // Peaks are sorted within a block only: a few later ones may still be in range.
        if (dt > this.maxSpan + BLOCK_FRAMES) break;
        continue;
      }
      if (dt >= this.minSpan && Math.abs(p.pitch - a.pitch) <= QUAD.range) bCount = offer(candidates, bCount, settings.bCandidates, p);
    }
    for (let k = 0; k < bCount; k += 1) {
      const b = candidates[k] as Peak;
      let cCount = 0;
      for (let j = index + 1; j < peaks.length; j += 1) {
        const p = peaks[j] as Peak;
        if (p.time - a.time > this.maxSpan + BLOCK_FRAMES) break;
        if (p.time > a.time + 1 && p.time < b.time - 1 && Math.abs(p.pitch - a.pitch) <= QUAD.range)
          cCount = offer(between, cCount, settings.betweenCandidates, p);
      }
      if (cCount < 2) continue;
      const span = b.time - a.time;
      for (let i = 0; i < cCount; i += 1) {
        for (let j = i + 1; j < cCount; j += 1) {
          const first = between[i] as Peak;
          const second = between[j] as Peak;
          const c = second.time < first.time ? second : first;
          const d = c === first ? second : first;
          quad.time = a.time;
          quad.pitch = a.pitch;
          quad.span = span;
          quad.xC = (c.time - a.time) / span;
          quad.xD = (d.time - a.time) / span;
          quad.dB = b.pitch - a.pitch;
          quad.dC = c.pitch - a.pitch;
          quad.dD = d.pitch - a.pitch;
          this.emit(quad);
        }
      }
    }
  }
}
