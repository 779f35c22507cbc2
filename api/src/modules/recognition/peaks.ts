// Spectrogram and peaks: PCM at the analysis rate -> log-power frames -> the spectral peaks each fingerprint is made of.

import { ANALYSIS_RATE, RealFft } from './dsp.js';

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
export const BLOCK_FRAMES = 32;
const MIN_POWER = 1e-3;

export interface PeakSettings {
  /** Peaks kept per band per block. */
  peaksPerBand: number;
  /** A peak is the largest value within this many frames before and after it... */
  peakFrames: number;
  /** ...and within this many bins per 40 bins of frequency (at least 2) above and below it. */
  peakReach: number;
}

export interface Peak {
  /** Frames (fractional) from the start of the audio. */
  time: number;
  /** Semitones above BASE_HZ (fractional). */
  pitch: number;
  /** Log power. */
  level: number;
}

/** Spectrogram bins kept per frame: the picker's power, LOW_BIN - 1 to HIGH_BIN + 1. */
export const SPECTRUM_BINS = HIGH_BIN - LOW_BIN + 3;
/**
 * A level is a power's float32 exponent and top 3 mantissa bits (steps of 1/8 octave of power, 3/8 dB, roughly
 * linear within each octave) from 2^-16 up: 96 dB in a byte, read from the bits without a logarithm per bin.
 */
const LEVEL_SHIFT = 20;
const LEVEL_FLOOR = (127 - 16) << 3;

/** Where a pitch (semitones above BASE_HZ) falls among the spectrogram's bins (fractional; 0 is bin LOW_BIN - 1). */
export const spectrumBin = (pitch: number) => (BASE_HZ * 2 ** (pitch / 12)) / BIN_HZ - (LOW_BIN - 1);

/**
 * The query's spectrogram of the last seconds, a byte per bin and frame, so a found track's peaks can be looked up as
 * energy in the mix and not only as the peaks picked from it (match-onset.ts, where a track began).
 */
export class Spectrogram {
  private readonly levels: Uint8Array;
  private readonly frames: number;
  private newest = -1;

  constructor(seconds: number) {
    this.frames = Math.ceil(seconds / FRAME_SECONDS);
    this.levels = new Uint8Array(this.frames * SPECTRUM_BINS);
  }

  /** Frame `frame`'s power (SPECTRUM_BINS of it, from bin LOW_BIN - 1), as the bits of its float32 values. */
  add(frame: number, powerBits: Uint32Array) {
    const row = (frame % this.frames) * SPECTRUM_BINS;
    const { levels } = this;
    for (let i = 0; i < SPECTRUM_BINS; i += 1) {
      const level = ((powerBits[i] as number) >>> LEVEL_SHIFT) - LEVEL_FLOOR;
      levels[row + i] = level < 0 ? 0 : level > 255 ? 255 : level;
    }
    this.newest = frame;
  }

  /**
   * The highest level within a frame and `semitones` of (time in frames, pitch in semitones above BASE_HZ), in 3/8 dB
   * steps, or -1 where the spectrogram holds no frame or bin.
   */
  level(time: number, pitch: number, semitones: number): number {
    const frame = Math.round(time);
    if (frame < 1 || frame >= this.newest || frame <= this.newest - this.frames + 1) return -1;
    const from = Math.max(0, Math.round(spectrumBin(pitch - semitones)));
    const to = Math.min(SPECTRUM_BINS - 1, Math.round(spectrumBin(pitch + semitones)));
    if (from > to) return -1;
    const { levels } = this;
    let highest = 0;
    for (let f = frame - 1; f <= frame + 1; f += 1) {
      const row = (f % this.frames) * SPECTRUM_BINS;
      for (let i = row + from; i <= row + to; i += 1) if ((levels[i] as number) > highest) highest = levels[i] as number;
    }
    return highest;
  }
}

// Comparators made once: closures created in hot loops cost an allocation each (and a name under tsx).
export const louderFirst = (a: Peak, b: Peak) => b.level - a.level;
const earlierFirst = (a: Peak, b: Peak) => a.time - b.time;

/**
 * Streaming spectral peak picker at the analysis rate: Hann-windowed 1024-point frames every 128 samples (16 ms),
 * log power from 130 Hz to 3.6 kHz, local maxima over a neighbourhood that widens with frequency (a third of a
 * semitone-ish at the top, a few bins at the bottom) and ±5 frames, then per half-second block the strongest few of
 * each of four frequency bands.
 */
export class PeakPicker {
  private readonly fft = new RealFft(FFT_SIZE);
  private readonly window = new Float64Array(FFT_SIZE);
  private readonly samples = new Float32Array(FFT_SIZE);
  private filled = 0;
  private sinceHop = 0;
  private readonly bins = SPECTRUM_BINS; // one extra each side for interpolation
  private readonly power = new Float32Array(SPECTRUM_BINS);
  /** The same values' bits, for the spectrogram's levels. */
  private readonly powerBits = new Uint32Array(this.power.buffer);
  /**
   * Ring of the last 2 * peakFrames + 1 frames of power. Peaks are picked on power itself (the logarithm keeps the
   * order): only the few peaks found take a logarithm, not every bin of every frame.
   */
  private readonly depth: number;
  private readonly powers: Float32Array[];
  private readonly reach: Int32Array;
  private readonly bandOf: Int32Array;
  private frames = 0;
  private block: Peak[][] = [];
  private blockIndex = 0;

  constructor(
    private readonly settings: PeakSettings,
    private readonly emit: (peaks: Peak[]) => void,
    private readonly emitAll?: (peaks: Peak[]) => void,
    private readonly spectrogram?: Spectrogram,
  ) {
    for (let i = 0; i < FFT_SIZE; i += 1) this.window[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / FFT_SIZE);
    this.depth = 2 * settings.peakFrames + 1;
    this.powers = Array.from({ length: this.depth }, () => new Float32Array(this.bins).fill(MIN_POWER));
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
    const { window, samples, power, bins } = this;
    // The ring's oldest sample: the frame starts there and wraps once.
    this.fft.powerOfRing(samples, this.filled % FFT_SIZE, window, power, LOW_BIN - 1, HIGH_BIN + 2);
    this.spectrogram?.add(this.frames, this.powerBits);
    const slot = this.frames % this.depth;
    const powers = this.powers[slot] as Float32Array;
    for (let i = 0; i < bins; i += 1) powers[i] = power[i] + 1e-12;
    this.frames += 1;
    if (this.frames > this.settings.peakFrames) this.judge(this.frames - 1 - this.settings.peakFrames);
  }

  /** Finds the peaks of frame `centre` (its neighbours up to peakFrames later have been analysed). */
  private judge(centre: number) {
    const { depth, bins } = this;
    const powers = this.powers[centre % depth] as Float32Array;
    const blockIndex = Math.floor(centre / BLOCK_FRAMES);
    if (blockIndex !== this.blockIndex) {
      this.closeBlock();
      this.blockIndex = blockIndex;
    }
    const { reach } = this;
    const { peakFrames } = this.settings;
    for (let i = 1; i < bins - 1; i += 1) {
      const value = powers[i];
      if (value <= MIN_POWER || value < powers[i - 1] || value <= powers[i + 1]) continue;
      // The same bin in the other frames first: a few reads reject most candidates (a held note is a maximum in
      // frequency frame after frame, and in time at one of them), before the neighbourhoods are scanned.
      let isPeak = true;
      for (let k = 1; k <= peakFrames && isPeak; k += 1) {
        if ((this.powers[(centre + k) % depth] as Float32Array)[i] >= value) isPeak = false;
        else if (centre - k >= 0 && (this.powers[(centre - k) % depth] as Float32Array)[i] > value) isPeak = false;
      }
      if (!isPeak) continue;
      const from = Math.max(0, i - reach[i]);
      const to = Math.min(bins - 1, i + reach[i]);
      for (let j = from; j <= to && isPeak; j += 1) if (powers[j] > value || (j > i && powers[j] === value)) isPeak = false;
      for (let k = 1; k <= peakFrames && isPeak; k += 1) {
        const later = this.powers[(centre + k) % depth] as Float32Array;
        for (let j = from; j <= to; j += 1) {
          if (later[j] >= value) {
            isPeak = false;
            break;
          }
        }
        if (!isPeak || centre - k < 0) continue;
        const earlier = this.powers[(centre - k) % depth] as Float32Array;
        for (let j = from; j <= to; j += 1) {
          if (earlier[j] > value) {
            isPeak = false;
            break;
          }
        }
      }
      if (!isPeak) continue;
      // Parabolic interpolation of log power in frequency and in time.
      const level = Math.log(value);
      const below = Math.log(powers[i - 1]);
      const above = Math.log(powers[i + 1]);
      const curve = below - 2 * level + above;
      const shift = curve < 0 ? Math.max(-0.5, Math.min(0.5, (0.5 * (below - above)) / curve)) : 0;
      const before = centre > 0 ? Math.log((this.powers[(centre - 1) % depth] as Float32Array)[i]) : level;
      const after = Math.log((this.powers[(centre + 1) % depth] as Float32Array)[i]);
      const bend = before - 2 * level + after;
      const timeShift = bend < 0 ? Math.max(-0.5, Math.min(0.5, (0.5 * (before - after)) / bend)) : 0;
      const hz = (LOW_BIN - 1 + i + shift) * BIN_HZ;
      (this.block[this.bandOf[i]] as Peak[]).push({ time: centre + timeShift, pitch: 12 * Math.log2(hz / BASE_HZ), level });
    }
  }

  private closeBlock() {
    if (this.emitAll) {
      const all = this.block.flat();
      all.sort(earlierFirst);
      if (all.length > 0) this.emitAll(all);
    }
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
