// Fingerprint extraction: PCM -> spectrogram -> spectral peaks -> quads of peaks -> hashes invariant to speed.
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

import { ANALYSIS_RATE, RealFft, Resampler } from './dsp.js';

export const FFT_SIZE = 1024;
export const HOP = 128;
/** Seconds per spectrogram frame: every time in a fingerprint is counted in frames. */
export const FRAME_SECONDS = HOP / ANALYSIS_RATE;
const BIN_HZ = ANALYSIS_RATE / FFT_SIZE;
/** Pitch 0 of the log-frequency scale (semitones above this frequency). */
const BASE_HZ = 120;
const LOW_BIN = Math.ceil(130 / BIN_HZ);
const HIGH_BIN = Math.floor(3600 / BIN_HZ);
/** Peaks are picked per frequency band, so a band cut or boosted by an EQ keeps its share of the peaks. */
const BAND_EDGES_HZ = [130, 280, 600, 1300, 3600];
/** Frames per block of peak selection (about half a second). */
const BLOCK_FRAMES = 32;
const MIN_POWER = 1e-3;

/** Quad geometry, in frames and semitones. */
const QUAD = {
  minSpan: 20,
  maxSpan: 80,
  /** C, D and B stay within this many semitones of A. */
  range: 12,
  /** The query's window is wider by this factor both ways: speeds up to ±12% keep their quads inside it. */
  stretch: 1.12,
};
const X_CELLS = 8;
const INTERVAL_CELLS = 2 * QUAD.range + 1;
const PITCH_STEP = 3;
const PITCH_CELLS = 20;
/** Hash keys are below this (about 2^24.3): a 32-bit integer column. */
export const HASH_SPACE = X_CELLS * X_CELLS * INTERVAL_CELLS ** 3 * PITCH_CELLS;

export type Mode = 'reference' | 'query';

export interface ExtractorSettings {
  /** Peaks kept per band per block. */
  peaksPerBand: number;
  /** A peak is the largest value within this many frames before and after it... */
  peakFrames: number;
  /** ...and within this many bins per 40 bins of frequency (at least 2) above and below it. */
  peakReach: number;
  /** B candidates per root (the strongest in the window). */
  bCandidates: number;
  /** C and D come from this many of the strongest peaks between A and B. */
  betweenCandidates: number;
}

export const REFERENCE_SETTINGS: ExtractorSettings = { peaksPerBand: 3, peakFrames: 5, peakReach: 1, bCandidates: 2, betweenCandidates: 2 };
export const QUERY_SETTINGS: ExtractorSettings = {
  peaksPerBand: 5,
  peakFrames: 5,
  peakReach: 1,
  bCandidates: 4,
  betweenCandidates: 3,
};

export interface Peak {
  /** Frames (fractional) from the start of the audio. */
  time: number;
  /** Semitones above BASE_HZ (fractional). */
  pitch: number;
  /** Log power. */
  level: number;
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
export const MAX_PITCH_SHIFT = 1.5;

function cellsNear(value: number, cells: number, margin: number, out: number[]) {
  out.length = 0;
  const cell = Math.floor(value);
  const within = value - cell;
  out.push(Math.min(cells - 1, Math.max(0, cell)));
  if (within < margin && cell - 1 >= 0) out.push(cell - 1);
  else if (within > 1 - margin && cell + 1 < cells) out.push(cell + 1);
}

const probeScratch = { xc: [] as number[], xd: [] as number[], b: [] as number[], c: [] as number[], d: [] as number[], p: [] as number[] };

/** Every hash key a stored quad matching this query quad may have (its cells and the neighbours it is close to). */
export function probeKeys(quad: Quad, out: number[]): number[] {
  out.length = 0;
  const s = probeScratch;
  cellsNear(quad.xC * X_CELLS, X_CELLS, X_MARGIN, s.xc);
  cellsNear(quad.xD * X_CELLS, X_CELLS, X_MARGIN, s.xd);
  cellsNear(quad.dB + QUAD.range + 0.5, INTERVAL_CELLS, INTERVAL_MARGIN, s.b);
  cellsNear(quad.dC + QUAD.range + 0.5, INTERVAL_CELLS, INTERVAL_MARGIN, s.c);
  cellsNear(quad.dD + QUAD.range + 0.5, INTERVAL_CELLS, INTERVAL_MARGIN, s.d);
  s.p.length = 0;
  const lowPitch = cellOfPitch(quad.pitch - MAX_PITCH_SHIFT);
  const highPitch = cellOfPitch(quad.pitch + MAX_PITCH_SHIFT);
  for (let p = lowPitch; p <= highPitch; p += 1) s.p.push(p);
  for (const xc of s.xc)
    for (const xd of s.xd)
      for (const b of s.b) for (const c of s.c) for (const d of s.d) for (const p of s.p) out.push(keyOfCells(xc, xd, b, c, d, p));
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Spectrogram and peaks

const LOG_FLOOR = Math.log(MIN_POWER);
// Comparators made once: closures created in hot loops cost an allocation each (and a name under tsx).
const louderFirst = (a: Peak, b: Peak) => b.level - a.level;
const earlierFirst = (a: Peak, b: Peak) => a.time - b.time;

/**
 * Streaming spectral peak picker at the analysis rate: Hann-windowed 1024-point frames every 128 samples (16 ms),
 * log power from 130 Hz to 3.6 kHz, local maxima over a neighbourhood that widens with frequency (a third of a
 * semitone-ish at the top, a few bins at the bottom) and ±5 frames, then per half-second block the strongest few of
 * each of four frequency bands.
 */
class PeakPicker {
  private readonly fft = new RealFft(FFT_SIZE);
  private readonly window = new Float64Array(FFT_SIZE);
  private readonly frame = new Float64Array(FFT_SIZE);
  private readonly samples = new Float32Array(FFT_SIZE);
  private filled = 0;
  private sinceHop = 0;
  private readonly bins = HIGH_BIN - LOW_BIN + 3; // one extra each side for interpolation
  private readonly power = new Float32Array(HIGH_BIN - LOW_BIN + 3);
  /** Ring of the last 2 * peakFrames + 1 frames of log power. */
  private readonly depth: number;
  private readonly logs: Float32Array[];
  private readonly reach: Int32Array;
  private readonly bandOf: Int32Array;
  private frames = 0;
  private block: Peak[][] = [];
  private blockIndex = 0;

  constructor(
    private readonly settings: ExtractorSettings,
    private readonly emit: (peaks: Peak[]) => void,
  ) {
    for (let i = 0; i < FFT_SIZE; i += 1) this.window[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / FFT_SIZE);
    this.depth = 2 * settings.peakFrames + 1;
    this.logs = Array.from({ length: this.depth }, () => new Float32Array(this.bins).fill(LOG_FLOOR));
    this.reach = new Int32Array(this.bins);
    this.bandOf = new Int32Array(this.bins);
    for (let i = 0; i < this.bins; i += 1) {
      const bin = LOW_BIN - 1 + i;
      this.reach[i] = Math.max(2, Math.round(Math.max(3, bin * 0.025) * settings.peakReach));
      const hz = bin * BIN_HZ;
      let band = 0;
      while (band < BAND_EDGES_HZ.length - 2 && hz >= (BAND_EDGES_HZ[band + 1] as number)) band += 1;
      this.bandOf[i] = band;
    }
    this.block = Array.from({ length: BAND_EDGES_HZ.length - 1 }, () => []);
  }

  push(input: Float32Array) {
    const { samples } = this;
    let at = 0;
    while (at < input.length) {
      // A ring buffer: `filled` counts every sample ever written; a frame is due every HOP samples once it is full.
      const due = this.filled < FFT_SIZE ? FFT_SIZE - this.filled : HOP - this.sinceHop;
      const take = Math.min(due, input.length - at);
      // At most one wrap of the ring: two block copies.
      const slot = this.filled % FFT_SIZE;
      const first = Math.min(take, FFT_SIZE - slot);
      samples.set(input.subarray(at, at + first), slot);
      if (first < take) samples.set(input.subarray(at + first, at + take), 0);
      this.filled += take;
      this.sinceHop = this.filled < FFT_SIZE ? 0 : this.sinceHop + take;
      at += take;
      if (this.filled === FFT_SIZE && this.sinceHop === 0) this.analyse();
      else if (this.sinceHop >= HOP) {
        this.sinceHop = 0;
        this.analyse();
      }
    }
  }

  finish() {
    // Push silence through so the last frames are judged, then close the last block.
    const quiet = new Float32Array(HOP * (this.settings.peakFrames + 1) + FFT_SIZE);
    this.push(quiet);
    this.closeBlock();
  }

  private analyse() {
    const { frame, window, samples, power, bins } = this;
    const oldest = this.filled % FFT_SIZE; // the ring's oldest sample: the frame starts there and wraps once
    const wrapAt = FFT_SIZE - oldest;
    for (let i = 0; i < wrapAt; i += 1) frame[i] = samples[oldest + i] * window[i];
    for (let i = wrapAt; i < FFT_SIZE; i += 1) frame[i] = samples[i - wrapAt] * window[i];
    this.fft.power(frame, power, LOW_BIN - 1, HIGH_BIN + 2);
    const slot = this.frames % this.depth;
    const logs = this.logs[slot] as Float32Array;
    for (let i = 0; i < bins; i += 1) logs[i] = Math.log(power[i] + 1e-12);
    this.frames += 1;
    if (this.frames > this.settings.peakFrames) this.judge(this.frames - 1 - this.settings.peakFrames);
  }

  /** Finds the peaks of frame `centre` (its neighbours up to peakFrames later have been analysed). */
  private judge(centre: number) {
    const { depth, bins } = this;
    const logs = this.logs[centre % depth] as Float32Array;
    const blockIndex = Math.floor(centre / BLOCK_FRAMES);
    if (blockIndex !== this.blockIndex) {
      this.closeBlock();
      this.blockIndex = blockIndex;
    }
    const { reach } = this;
    const { peakFrames } = this.settings;
    for (let i = 1; i < bins - 1; i += 1) {
      const value = logs[i];
      if (value <= LOG_FLOOR || value < logs[i - 1] || value <= logs[i + 1]) continue;
      const from = Math.max(0, i - reach[i]);
      const to = Math.min(bins - 1, i + reach[i]);
      let isPeak = true;
      for (let j = from; j <= to && isPeak; j += 1) if (logs[j] > value || (j > i && logs[j] === value)) isPeak = false;
      for (let k = 1; k <= peakFrames && isPeak; k += 1) {
        const later = this.logs[(centre + k) % depth] as Float32Array;
        for (let j = from; j <= to; j += 1) {
          if (later[j] >= value) {
            isPeak = false;
            break;
          }
        }
        if (!isPeak || centre - k < 0) continue;
        const earlier = this.logs[(centre - k) % depth] as Float32Array;
        for (let j = from; j <= to; j += 1) {
          if (earlier[j] > value) {
            isPeak = false;
            break;
          }
        }
      }
      if (!isPeak) continue;
      // Parabolic interpolation in frequency and in time.
      const below = logs[i - 1];
      const above = logs[i + 1];
      const curve = below - 2 * value + above;
      const shift = curve < 0 ? Math.max(-0.5, Math.min(0.5, (0.5 * (below - above)) / curve)) : 0;
      const before = centre > 0 ? (this.logs[(centre - 1) % depth] as Float32Array)[i] : value;
      const after = (this.logs[(centre + 1) % depth] as Float32Array)[i];
      const bend = before - 2 * value + after;
      const timeShift = bend < 0 ? Math.max(-0.5, Math.min(0.5, (0.5 * (before - after)) / bend)) : 0;
      const hz = (LOW_BIN - 1 + i + shift) * BIN_HZ;
      (this.block[this.bandOf[i]] as Peak[]).push({ time: centre + timeShift, pitch: 12 * Math.log2(hz / BASE_HZ), level: value });
    }
  }

  private closeBlock() {
    const kept: Peak[] = [];
    for (const band of this.block) {
      band.sort(louderFirst);
      for (let i = 0; i < Math.min(this.settings.peaksPerBand, band.length); i += 1) kept.push(band[i] as Peak);
      band.length = 0;
    }
    if (kept.length > 0) {
      kept.sort(earlierFirst);
      this.emit(kept);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Quads

/** Builds quads from peaks in time order, each root once all peaks its window can hold have arrived. */
class QuadBuilder {
  private peaks: Peak[] = [];
  private next = 0;
  private readonly minSpan: number;
  private readonly maxSpan: number;
  private readonly candidates: Peak[] = [];
  private readonly between: Peak[] = [];

  constructor(
    private readonly settings: ExtractorSettings,
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
    const { peaks, candidates, between, settings } = this;
    const a = peaks[index] as Peak;
    candidates.length = 0;
    for (let j = index + 1; j < peaks.length; j += 1) {
      const p = peaks[j] as Peak;
      const dt = p.time - a.time;
      if (dt > this.maxSpan) {
        // Peaks are sorted within a block only: a few later ones may still be in range.
        if (dt > this.maxSpan + BLOCK_FRAMES) break;
        continue;
      }
      if (dt >= this.minSpan && Math.abs(p.pitch - a.pitch) <= QUAD.range) candidates.push(p);
    }
    if (candidates.length === 0) return;
    candidates.sort(louderFirst);
    const bCount = Math.min(settings.bCandidates, candidates.length);
    for (let k = 0; k < bCount; k += 1) {
      const b = candidates[k] as Peak;
      between.length = 0;
      for (let j = index + 1; j < peaks.length; j += 1) {
        const p = peaks[j] as Peak;
        if (p.time - a.time > this.maxSpan + BLOCK_FRAMES) break;
        if (p.time > a.time + 1 && p.time < b.time - 1 && Math.abs(p.pitch - a.pitch) <= QUAD.range) between.push(p);
      }
      if (between.length < 2) continue;
      between.sort(louderFirst);
      const cCount = Math.min(settings.betweenCandidates, between.length);
      const span = b.time - a.time;
      for (let i = 0; i < cCount; i += 1) {
        for (let j = i + 1; j < cCount; j += 1) {
          let c = between[i] as Peak;
          let d = between[j] as Peak;
          if (d.time < c.time) [c, d] = [d, c];
          this.emit({
            time: a.time,
            pitch: a.pitch,
            span,
            xC: (c.time - a.time) / span,
            xD: (d.time - a.time) / span,
            dB: b.pitch - a.pitch,
            dC: c.pitch - a.pitch,
            dD: d.pitch - a.pitch,
          });
        }
      }
    }
  }
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

  /** `onPeaks` sees each half-second block's peaks (in time order) before they become quads. */
  constructor(
    sampleRate: number,
    mode: Mode,
    onQuad: (quad: Quad) => void,
    settings?: ExtractorSettings,
    onPeaks?: (peaks: readonly Peak[]) => void,
  ) {
    const chosen = settings ?? (mode === 'reference' ? REFERENCE_SETTINGS : QUERY_SETTINGS);
    this.resampler = new Resampler(sampleRate, ANALYSIS_RATE);
    this.quads = new QuadBuilder(chosen, mode, onQuad);
    this.picker = new PeakPicker(chosen, (peaks) => {
      this.peakCount += peaks.length;
      onPeaks?.(peaks);
      this.quads.add(peaks);
    });
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
