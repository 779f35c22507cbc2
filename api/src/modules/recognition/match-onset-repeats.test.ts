import { describe, expect, test } from 'vitest';
import { Random } from '../../shared/random.js';
import type { FingerprintIndex } from './fingerprint-index.js';
import type { Line } from './match-lines.js';
import {
  aboveChance,
  type Coincidences,
  chanceOf,
  earliestPlaying,
  energyAboveAround,
  fadeInStart,
  laterRepeat,
  shareAboveChance,
} from './match-onset.js';
import { DEFAULT_MATCHER_SETTINGS, FRAMES_PER_SECOND } from './matcher-settings.js';
import { PeakHistory } from './peak-history.js';
import { SPECTRUM_BINS, Spectrogram, spectrumBin } from './peaks.js';

/** Where a found track began when it faded in slowly, or when its line sits on an earlier repeat of looped music. */
const SECOND = FRAMES_PER_SECOND;
const peak = (time: number, pitch: number) => ({ time, pitch, level: 1 });
const seconds = (frame: number) => Math.round((frame / SECOND) * 10) / 10;

describe('a fade-in, and a line on an earlier repeat of the music', () => {
  const settings = DEFAULT_MATCHER_SETTINGS;
  const line: Line = { at: 0, origin: 0, speed: 1, pitch: 0 };
  const index = (roots: Uint32Array): FingerprintIndex => ({ lookup: () => undefined, size: 0, rootsOf: () => roots });
  /** Roots every 4 frames at random pitches over `length` seconds; with `loop`, the first `loop` seconds over and over. */
  const trackRoots = (length: number, loop?: number) => {
    const random = new Random(11);
    const pitches = Array.from({ length: Math.floor((length * SECOND) / 4) }, () => random.int(20, 59));
    const period = loop ? Math.floor((loop * SECOND) / 4) : pitches.length;
    return Uint32Array.from(pitches, (_, index) => ((index * 4) << 7) | (pitches[index % period] as number));
  };

  /**
   * The mix's peaks of a track fading in from 30 s: the share of its peaks heard rises from none to all over 30 s,
   * among unrelated peaks everywhere (at 15% of the track's places, on its pitches and on the decoys').
   */
  const fadingIn = (roots: Uint32Array) => {
    const random = new Random(5);
    const history = new PeakHistory();
    const peaks = [];
    for (const root of roots) {
      const time = root >>> 7;
      const pitch = (root & 127) / 2;
      const heard = Math.min(1, Math.max(0, (time / SECOND - 30) / 30));
      if (random.next() < heard || random.next() < 0.15) peaks.push(peak(time, pitch));
      for (const shift of [-2.7, -1.3, 1.3, 2.7]) if (random.next() < 0.15) peaks.push(peak(time, pitch + shift));
    }
    history.add(peaks.sort((a, b) => a.time - b.time));
    return history;
  };

  test('a fade-in heard a little more each second starts at the foot of its rise, not where one window stands out', () => {
    // From 30 s the share of the track's peaks the mix holds rises from none to all over 30 s, among unrelated peaks
    // everywhere (at 15% of the track's places, on its pitches and on the decoys'): the first windows hold too few
    // to stand out alone (the walk alone stops at 32 s).
    const roots = trackRoots(100);
    const history = fadingIn(roots);
    const found = seconds(earliestPlaying(index(roots), history, settings, 1, line, 60 * SECOND));
    expect(found).toBeGreaterThanOrEqual(29);
    expect(found).toBeLessThanOrEqual(31);
  });

  test("with the query's spectrogram, the mean of the peaks' foot and that of the energy at the track's roots", () => {
    // The same fade of peaks as above (their foot near 30 s); the energy at the track's roots rises from 26 s (within
    // the 8 s before the walk's start that the ramps read): each root's bin is louder than its surroundings by a
    // number of decibels growing from none to 12 over 30 s.
    const roots = trackRoots(100);
    const history = fadingIn(roots);
    const frames = Array.from({ length: 75 * SECOND }, () => new Float32Array(SPECTRUM_BINS).fill(0.01));
    for (const root of roots) {
      const time = root >>> 7;
      const gain = Math.min(1, Math.max(0, (time / SECOND - 26) / 30));
      const bin = Math.round(spectrumBin((root & 127) / 2));
      if (time < frames.length && gain > 0) (frames[time] as Float32Array)[bin] = 0.01 * 16 ** gain;
    }
    const spectrogram = new Spectrogram(80);
    for (const [frame, power] of frames.entries()) spectrogram.add(frame, new Uint32Array(power.buffer));
    const alone = seconds(earliestPlaying(index(roots), history, settings, 1, line, 60 * SECOND));
    const both = seconds(earliestPlaying(index(roots), history, settings, 1, line, 60 * SECOND, spectrogram));
    expect(alone).toBeGreaterThanOrEqual(29);
    expect(both).toBeGreaterThanOrEqual((alone + 26) / 2 - 0.5);
    expect(both).toBeLessThanOrEqual((alone + 26) / 2 + 0.5);
  });

  test('a line on an earlier repeat is moved to a later one when followed back it leaves the reference', () => {
    // The track is a 20 s loop, played from 50 s of the reference at 40 s of the mix; the line found sits one loop
    // earlier (30 s of the reference at 40 s of the mix), so followed back it leaves the reference at 10 s of the mix.
    const roots = trackRoots(200, 20);
    const history = new PeakHistory();
    const peaks = [peak(0, 100)];
    for (const root of roots) {
      const time = (root >>> 7) - 10 * SECOND;
      if (time >= 0 && time < 90 * SECOND) peaks.push(peak(time, (root & 127) / 2));
    }
    history.add(peaks);
    // The mix holds the track from 0 s (reference 10 s), so 40 s back from 40 s the walk finds it all the way.
    const earlier: Line = { at: 30 * SECOND, origin: 40 * SECOND, speed: 1, pitch: 0 };
    expect(seconds(earliestPlaying(index(roots), history, settings, 1, earlier, 40 * SECOND))).toBe(0);
  });
});

describe('the later repeat of a stretch of roots', () => {
  test('the loop length of looped music, none in music that does not repeat', () => {
    const random = new Random(3);
    const loop = Array.from({ length: 250 }, () => random.int(20, 59));
    const looped = Uint32Array.from({ length: 1000 }, (_, index) => ((index * 4) << 7) | (loop[index % 250] as number));
    expect(laterRepeat(looped, 100, 800)).toBe(1000);
    const plain = Uint32Array.from({ length: 1000 }, (_, index) => ((index * 4) << 7) | random.int(20, 59));
    expect(laterRepeat(plain, 100, 800)).toBe(0);
  });
});

describe('the later repeat of a stretch: which roots, how far, how many', () => {
  const random = new Random(17);
  /** Roots every 4 frames: `intro` frames of music heard once, then a loop of `loop` frames, `length` frames in all. */
  const looped = (intro: number, loop: number, length: number) => {
    const once = Array.from({ length: intro / 4 }, () => random.int(20, 59));
    const bar = Array.from({ length: loop / 4 }, () => random.int(20, 59));
    return Uint32Array.from({ length: length / 4 }, (_, index) => {
      const time = index * 4;
      const pitch = time < intro ? (once[index] as number) : (bar[((time - intro) / 4) % bar.length] as number);
      return (time << 7) | pitch;
    });
  };

  test("only the stretch's own roots are judged, not the music before it", () => {
    // 40 s heard once, then a 20 s loop: the loop repeats, the stretch that begins in the intro does not.
    const roots = looped(2500, 1248, 10_000);
    expect(laterRepeat(roots, 3000, 3700)).toBe(1248);
    expect(laterRepeat(roots, 2000, 2700)).toBe(0);
  });

  test('a repeat up to two minutes later is found, not one further on', () => {
    expect(laterRepeat(looped(0, 7500, 16_000), 100, 800)).toBe(7500);
    expect(laterRepeat(looped(0, 7600, 16_000), 100, 800)).toBe(0);
  });

  test('at least half of at least ten roots must come again', () => {
    // `count` roots of distinct pitches from 1000 (after other music), `again` of them heard again 2000 frames later;
    // the root just after the stretch comes again too, but is not the stretch's.
    const stretch = (again: number, count: number) => {
      const roots: number[] = [(500 << 7) | 120];
      for (let i = 0; i <= count; i += 1) roots.push(((1000 + 4 * i) << 7) | (20 + i));
      for (let i = 0; i <= count; i += 1) roots.push(((3000 + 4 * i) << 7) | (i < again || i === count ? 20 + i : 100 + i));
      return Uint32Array.from(roots);
    };
    const to = (count: number) => 1000 + 4 * count;
    expect(laterRepeat(stretch(10, 20), 1000, to(20))).toBe(2000);
    expect(laterRepeat(stretch(9, 20), 1000, to(20))).toBe(0);
    // Nine roots, every one of them heard again: too few to tell.
    expect(laterRepeat(stretch(10, 10), 1000, to(10))).toBe(2000);
    expect(laterRepeat(stretch(9, 9), 1000, to(9))).toBe(0);
  });

  test('a repeat whose roots come back a frame early or late (times are whole frames) is found at its middle', () => {
    const random = new Random(23);
    const roots: number[] = [];
    for (let i = 0; i < 60; i += 1) roots.push(((1000 + 5 * i) << 7) | random.int(20, 59));
    for (let i = 0; i < 60; i += 1) roots.push(((1000 + 5 * i + 2000 + (i % 3) - 1) << 7) | ((roots[i] as number) & 127));
    expect(laterRepeat(Uint32Array.from(roots), 1000, 1300)).toBe(2000);
  });
});

describe("how far above chance a stretch's roots met the mix", () => {
  test('in standard deviations of the binomial count at the decoy lines’ rate, that rate never under 2%', () => {
    // 100 roots, 30 met; the decoy lines met 80 of their 400 tries: 20 expected, 4 the standard deviation.
    expect(aboveChance({ time: 0, tried: 100, found: 30, decoys: 80 })).toBeCloseTo(2.5);
    expect(chanceOf({ time: 0, tried: 100, found: 30, decoys: 80 })).toBeCloseTo(0.2);
    expect(chanceOf({ time: 0, tried: 100, found: 30, decoys: 0 })).toBeCloseTo(0.02);
    expect(chanceOf({ time: 0, tried: 0, found: 0, decoys: 0 })).toBeCloseTo(0.02);
  });
});

describe("the energy at a track's roots over their surroundings", () => {
  test('through the line (speed, offset, pitch), in 3/8 dB steps, from the roots whose surroundings are held', () => {
    // Roots every 8 frames at random pitches; the mix plays them 5% slow, 100 frames late and 1.5 semitones up, 12 dB
    // over a flat background, and 6 dB louder 29 frames before each root (a beat of the outgoing track).
    const random = new Random(31);
    const roots = Uint32Array.from({ length: 500 }, (_, index) => ((index * 8) << 7) | random.int(20, 59));
    const line: Line = { at: 0, origin: 100, speed: 1 / 1.05, pitch: 1.5 };
    const frames = Array.from({ length: 4400 }, () => new Float32Array(SPECTRUM_BINS).fill(0.01));
    for (const root of roots) {
      const q = Math.round(100 + (root >>> 7) * 1.05);
      const bin = Math.round(spectrumBin((root & 127) / 2 + 1.5));
      if (q + 29 < frames.length) (frames[q] as Float32Array)[bin] = 0.01 * 16;
      if (q - 29 >= 0 && q + 29 < frames.length) (frames[q - 29] as Float32Array)[bin] = 0.01 * 4;
    }
    // 40 s (2500 frames) held: frames 1900 on.
    const spectrogram = new Spectrogram(40);
    for (const [frame, power] of frames.entries()) spectrogram.add(frame, new Uint32Array(power.buffer));
    // 12 dB at the root (32 steps), 6 dB at one of its four surroundings (16 / 4).
    const heard = energyAboveAround(roots, spectrogram, line, 2500, 3500);
    // (A neighbouring root of about the same pitch lifts a surrounding now and then.)
    expect(heard.excess).toBeGreaterThan(26.5);
    expect(heard.excess).toBeLessThanOrEqual(28);
    expect(heard.weight).toBe(119);
    // Off the line's pitch or speed, nothing stands out.
    expect(Math.abs(energyAboveAround(roots, spectrogram, { ...line, pitch: 0 }, 2500, 3500).excess)).toBeLessThan(3);
    expect(Math.abs(energyAboveAround(roots, spectrogram, { ...line, speed: 1 }, 2500, 3500).excess)).toBeLessThan(3);
    // At the oldest frames held, only the roots whose earlier surroundings are held count: 9 of the 12 from 1900 to 2000.
    const edge = energyAboveAround(roots, spectrogram, line, 1900, 2000);
    expect(edge.weight).toBe(9);
    expect(edge.excess).toBeGreaterThan(26.5);
    expect(energyAboveAround(roots, spectrogram, line, 4500, 4600)).toEqual({ time: 4550, weight: 0, excess: 0 });
  });
});

describe("the foot of a fade-in's rise", () => {
  /** Half-second bins of 40 roots (their middles in frames), at a chance rate of 10%, the track's share above it `share(second)`. */
  const BIN = SECOND / 2;
  const binsOf = (share: (second: number) => number, seconds = 20): Coincidences[] =>
    Array.from({ length: seconds * 2 }, (_, i) => {
      const time = BIN / 2 + i * BIN;
      return { time, tried: 40, found: 40 * (0.1 + share(time / SECOND)), decoys: 40 * 4 * 0.1 };
    });
  const foot = (bins: Coincidences[]) => fadeInStart(bins.map(shareAboveChance));
  const rise = (from: number, to: number) => (second: number) => 0.5 * Math.min(1, Math.max(0, (second - from) / (to - from)));

  test('where the share above chance starts to rise, to a quarter of a bin', () => {
    expect(seconds(foot(binsOf(rise(6, 10))) as number)).toBe(6);
    expect(seconds(foot(binsOf(rise(8.25, 9))) as number)).toBe(8.3);
  });

  test('a bin without any of the track’s roots (a silence in it) tells nothing', () => {
    const bins = binsOf(rise(6, 10));
    bins[14] = { ...(bins[14] as Coincidences), tried: 0, found: 0, decoys: 0 };
    expect(seconds(foot(bins) as number)).toBe(6);
  });

  test('none without four bins or without a rise above chance', () => {
    expect(foot(binsOf(rise(0.5, 1), 1.5))).toBeNull();
    expect(foot(binsOf(rise(0.5, 1), 2))).not.toBeNull();
    expect(foot(binsOf(() => 0))).toBeNull();
  });
});
