import { describe, expect, test } from 'vitest';
import { Random } from '../../shared/random.js';
import type { FingerprintIndex } from './fingerprint-index.js';
import type { Line } from './match-lines.js';
import { earliestPlaying, laterRepeat, PeakHistory } from './match-onset.js';
import { DEFAULT_MATCHER_SETTINGS, FRAMES_PER_SECOND } from './matcher-settings.js';

/** Where a found track began when it faded in slowly, or when its line sits on an earlier repeat of looped music. */
const SECOND = FRAMES_PER_SECOND;
const peak = (time: number, pitch: number) => ({ time, pitch, level: 1 });

describe('a fade-in, and a line on an earlier repeat of the music', () => {
  const settings = DEFAULT_MATCHER_SETTINGS;
  const line: Line = { at: 0, origin: 0, speed: 1, pitch: 0 };
  const index = (roots: Uint32Array): FingerprintIndex => ({ lookup: () => undefined, size: 0, rootsOf: () => roots });
  const seconds = (frame: number) => Math.round((frame / SECOND) * 10) / 10;
  /** Roots every 4 frames at random pitches over `length` seconds; with `loop`, the first `loop` seconds over and over. */
  const trackRoots = (length: number, loop?: number) => {
    const random = new Random(11);
    const pitches = Array.from({ length: Math.floor((length * SECOND) / 4) }, () => random.int(20, 59));
    const period = loop ? Math.floor((loop * SECOND) / 4) : pitches.length;
    return Uint32Array.from(pitches, (_, index) => ((index * 4) << 7) | (pitches[index % period] as number));
  };

  test('a fade-in heard a little more each second starts at the foot of its rise, not where one window stands out', () => {
    // From 30 s the share of the track's peaks the mix holds rises from none to all over 30 s, among unrelated peaks
    // everywhere (at 15% of the track's places, on its pitches and on the decoys'): the first windows hold too few
    // to stand out alone (the walk alone stops at 32 s).
    const roots = trackRoots(100);
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
    const found = seconds(earliestPlaying(index(roots), history, settings, 1, line, 60 * SECOND));
    expect(found).toBeGreaterThanOrEqual(29);
    expect(found).toBeLessThanOrEqual(31);
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
