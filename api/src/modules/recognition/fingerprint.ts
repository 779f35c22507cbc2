// Fingerprint extraction: PCM -> spectrogram -> spectral peaks (peaks.ts) -> quads of peaks (quads.ts) -> hashes
// invariant to speed (here, with the packed entries they store and the keys a query probes).
//
// The hashes follow the quads of Sonnleitner & Widmer (TASLP 2016), with one change: frequencies are on a log scale
// (semitones), so a pitch change is a shift, not a scaling. A quad is a root peak A, a peak B after it and two peaks
// C and D between them in time. Its hash holds C's and D's times as fractions of A-to-B (unchanged when the tempo
// changes, with or without key lock), B's, C's and D's pitch intervals above or below A (unchanged when the pitch
// changes with the tempo, as on a turntable), and A's pitch in coarse steps (moved by at most ±1.4 semitones at ±8%
// speed: the query looks in every step within reach). Each stored entry keeps A's time, the quad's length and A's
// pitch: a match then says at which speed and pitch shift the query plays the reference, and where.
//
// References store few quads per root peak (the strongest B and the strongest C, D), queries form many (several B
// candidates in a wider window, several pairs between): whatever the speed, the reference's quad is among them.

import { ANALYSIS_RATE, Resampler } from './dsp.js';
import { type Peak, PeakPicker, type PeakSettings, type Spectrogram } from './peaks.js';
import { type Mode, QUAD, type Quad, QuadBuilder, type QuadSettings } from './quads.js';

const X_CELLS = 8;
const INTERVAL_CELLS = 2 * QUAD.range + 1;
const PITCH_STEP = 3;
const PITCH_CELLS = 20;
/** Hash keys are below this (about 2^24.3): a 32-bit integer column. */
export const HASH_SPACE = X_CELLS * X_CELLS * INTERVAL_CELLS ** 3 * PITCH_CELLS;

export type ExtractorSettings = PeakSettings & QuadSettings;

export const REFERENCE_SETTINGS: ExtractorSettings = { peaksPerBand: 3, peakFrames: 5, peakReach: 1, bCandidates: 2, betweenCandidates: 2 };
export const QUERY_SETTINGS: ExtractorSettings = {
  peaksPerBand: 5,
  peakFrames: 5,
  peakReach: 1,
  bCandidates: 4,
  betweenCandidates: 3,
};

// ---------------------------------------------------------------------------------------------------------------
// Hash keys and packed entries

const cellOfX = (x: number) => Math.min(X_CELLS - 1, Math.max(0, Math.floor(x * X_CELLS)));
const cellOfInterval = (d: number) => Math.min(INTERVAL_CELLS - 1, Math.max(0, Math.floor(d + QUAD.range + 0.5)));
const cellOfPitch = (p: number) => Math.min(PITCH_CELLS - 1, Math.max(0, Math.floor(p / PITCH_STEP)));

function keyOfCells(xc: number, xd: number, b: number, c: number, d: number, pitch: number): number {
  return ((((xc * X_CELLS + xd) * INTERVAL_CELLS + b) * INTERVAL_CELLS + c) * INTERVAL_CELLS + d) * PITCH_CELLS + pitch;
}

/** The hash of a quad: the cell of its six invariant-or-nearly numbers. */
export function hashOf(quad: Quad): number {
  return keyOfCells(
    cellOfX(quad.xC),
    cellOfX(quad.xD),
    cellOfInterval(quad.dB),
    cellOfInterval(quad.dC),
    cellOfInterval(quad.dD),
    cellOfPitch(quad.pitch),
  );
}

const TIME_BITS = 18;
/** Frames a reference can be fingerprinted for: 2^18 frames, about 70 minutes. */
export const MAX_REFERENCE_FRAMES = 2 ** TIME_BITS - 1;

/** An entry's data in 32 bits: A's frame (18 bits), the quad's span in frames (7 bits), A's pitch in half semitones (7 bits). */
export function packEntry(quad: Quad): number {
  const time = Math.min(MAX_REFERENCE_FRAMES, Math.round(quad.time));
  const span = Math.min(127, Math.round(quad.span));
  const pitch = Math.min(127, Math.max(0, Math.round(quad.pitch * 2)));
  return ((time << 14) | (span << 7) | pitch) >>> 0;
}

export const entryTime = (data: number) => data >>> 14;
export const entrySpan = (data: number) => (data >>> 7) & 127;
export const entryPitch = (data: number) => (data & 127) / 2;
/** An entry's root peak, A (its frame and pitch in half semitones), as one number ordered by time: `(frame << 7) | pitch`. */
export const entryRoot = (data: number) => ((data >>> 14) << 7) | (data & 127);
export const rootTime = (root: number) => root >>> 7;
export const rootPitch = (root: number) => (root & 127) / 2;

/** Margins (in cells) within which a query also tries the neighbouring cell. */
const X_MARGIN = 0.2;
const INTERVAL_MARGIN = 0.3;
/** Semitones of pitch change the query allows for (±8% speed is ±1.33), plus the peaks' own uncertainty. */
export const MAX_PITCH_SHIFT = 3.3;

/**
 * A value's cell (in 0..cells-1) and the neighbouring cell it is within `margin` of (-1 if none), packed as
 * `cell * 64 + neighbour + 1`: five dimensions per quad, two million quads an hour, and no array for any of them.
 */
function cellsNear(value: number, cells: number, margin: number): number {
  const cell = Math.floor(value);
  const within = value - cell;
  const own = Math.min(cells - 1, Math.max(0, cell));
  let other = -1;
  if (within < margin && cell - 1 >= 0) other = cell - 1;
  else if (within > 1 - margin && cell + 1 < cells) other = cell + 1;
  return own * 64 + other + 1;
}

/** How many cells a cellsNear result names (1 or 2), and the n-th of them (the value's own cell first). */
const cellCount = (near: number) => ((near & 63) === 0 ? 1 : 2);
const cellAt = (near: number, n: number) => (n === 0 ? near >>> 6 : (near & 63) - 1);

/**
 * Every hash key a stored quad matching this query quad may have: its cells and the neighbours it is close to, each
 * with every pitch cell within MAX_PITCH_SHIFT of its root. A key's pitch cell is its last digit, so the pitch cells
 * of one shape are consecutive keys: `out` gets the first key of each run, and the run's length is returned (the
 * index reads a run in one go instead of one lookup per pitch cell).
 */
export function probeRuns(quad: Quad, out: number[]): number {
  out.length = 0;
  const xc = cellsNear(quad.xC * X_CELLS, X_CELLS, X_MARGIN);
  const xd = cellsNear(quad.xD * X_CELLS, X_CELLS, X_MARGIN);
  const b = cellsNear(quad.dB + QUAD.range + 0.5, INTERVAL_CELLS, INTERVAL_MARGIN);
  const c = cellsNear(quad.dC + QUAD.range + 0.5, INTERVAL_CELLS, INTERVAL_MARGIN);
  const d = cellsNear(quad.dD + QUAD.range + 0.5, INTERVAL_CELLS, INTERVAL_MARGIN);
  const lowPitch = cellOfPitch(quad.pitch - MAX_PITCH_SHIFT);
  const highPitch = cellOfPitch(quad.pitch + MAX_PITCH_SHIFT);
  for (let i = 0; i < cellCount(xc); i += 1)
    for (let j = 0; j < cellCount(xd); j += 1)
      for (let k = 0; k < cellCount(b); k += 1)
        for (let l = 0; l < cellCount(c); l += 1)
          for (let m = 0; m < cellCount(d); m += 1)
            out.push(keyOfCells(cellAt(xc, i), cellAt(xd, j), cellAt(b, k), cellAt(c, l), cellAt(d, m), lowPitch));
  return highPitch - lowPitch + 1;
}

/**
 * Streaming fingerprint extraction from PCM at any rate: `push` chunks of mono samples, `finish` at the end. Quads
 * arrive through `onQuad` as soon as their peaks are known (a couple of seconds behind the input).
 */
export class FingerprintExtractor {
  private readonly resampler: Resampler;
  private readonly picker: PeakPicker;
  private readonly quads: QuadBuilder;
  private peakCount = 0;

  /**
   * `onPeaks` sees each half-second block's peaks (in time order) before they become quads; `spectrogram` is given
   * every frame's power.
   */
  constructor(
    sampleRate: number,
    mode: Mode,
    onQuad: (quad: Quad) => void,
    settings?: ExtractorSettings,
    onPeaks?: (peaks: readonly Peak[]) => void,
    spectrogram?: Spectrogram,
  ) {
    const chosen = settings ?? (mode === 'reference' ? REFERENCE_SETTINGS : QUERY_SETTINGS);
    this.resampler = new Resampler(sampleRate, ANALYSIS_RATE);
    this.quads = new QuadBuilder(chosen, mode, onQuad);
    this.picker = new PeakPicker(
      chosen,
      (peaks) => {
        this.peakCount += peaks.length;
        this.quads.add(peaks);
      },
      onPeaks,
      spectrogram,
    );
  }

  get peaks(): number {
    return this.peakCount;
  }

  push(samples: Float32Array) {
    this.picker.push(this.resampler.process(samples));
  }

  finish() {
    this.picker.push(this.resampler.flush());
    this.picker.finish();
    this.quads.finish();
  }
}

/** A reference's fingerprints: one hash key and one packed entry (see packEntry) per quad. */
export interface Fingerprints {
  hashes: Uint32Array;
  data: Uint32Array;
  /** Seconds of audio fingerprinted. */
  seconds: number;
}

/** Fingerprints a reference recording chunk by chunk (e.g. while decoding its MP3): `push` mono PCM, then `finish`. */
export class ReferenceFingerprinter {
  private hashes = new Uint32Array(4096);
  private data = new Uint32Array(4096);
  private count = 0;
  private samples = 0;
  private readonly extractor: FingerprintExtractor;

  constructor(private readonly sampleRate: number) {
    this.extractor = new FingerprintExtractor(sampleRate, 'reference', (quad) => this.add(quad));
  }

  push(samples: Float32Array) {
    this.samples += samples.length;
    this.extractor.push(samples);
  }

  finish(): Fingerprints {
    this.extractor.finish();
    return { hashes: this.hashes.slice(0, this.count), data: this.data.slice(0, this.count), seconds: this.samples / this.sampleRate };
  }

  private add(quad: Quad) {
    if (quad.time > MAX_REFERENCE_FRAMES) return;
    if (this.count === this.hashes.length) {
      const hashes = new Uint32Array(this.count * 2);
      hashes.set(this.hashes);
      this.hashes = hashes;
      const data = new Uint32Array(this.count * 2);
      data.set(this.data);
      this.data = data;
    }
    this.hashes[this.count] = hashOf(quad);
    this.data[this.count] = packEntry(quad);
    this.count += 1;
  }
}

/** The fingerprints of a whole reference recording (mono PCM): what the catalogue stores for it. */
export function fingerprintReference(samples: Float32Array, sampleRate: number): Fingerprints {
  const fingerprinter = new ReferenceFingerprinter(sampleRate);
  const chunk = 65_536;
  for (let at = 0; at < samples.length; at += chunk) fingerprinter.push(samples.subarray(at, at + chunk));
  return fingerprinter.finish();
}
