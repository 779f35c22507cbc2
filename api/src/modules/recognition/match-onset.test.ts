import { describe, expect, test } from 'vitest';
import { Random } from '../../shared/random.js';
import type { FingerprintIndex } from './fingerprint-index.js';
import type { Line } from './match-lines.js';
import { alignLine, earliestPlaying } from './match-onset.js';
import { DEFAULT_MATCHER_SETTINGS, FRAMES_PER_SECOND } from './matcher-settings.js';
import { PeakHistory } from './peak-history.js';

const SECOND = FRAMES_PER_SECOND;
const peak = (time: number, pitch: number) => ({ time, pitch, level: 1 });

describe('where a found track began to be heard', () => {
  const settings = DEFAULT_MATCHER_SETTINGS;
  const line: Line = { at: 0, origin: 0, speed: 1, pitch: 0 };
  /**
   * The track's root peaks: one every 4 frames over 100 s, at pitches drawn at random (a root is time << 7 | 2 x
   * pitch): a line a few seconds off finds none of them, however it is stretched.
   */
  const random = new Random(7);
  const roots = Uint32Array.from({ length: Math.floor((100 * SECOND) / 4) }, (_, index) => ((index * 4) << 7) | random.int(20, 59));
  const index = (rootsOf?: FingerprintIndex['rootsOf']): FingerprintIndex => ({ lookup: () => undefined, size: 0, rootsOf });
  /** The query's peaks where the track is heard (query seconds), the reference `lag` frames ahead, its pitch `shift` up. */
  const heard = (intervals: [number, number][], from = 0, { lag = 0, shift = 0 } = {}) => {
    const history = new PeakHistory();
    const peaks = [];
    for (const root of roots) {
      const time = (root >>> 7) - lag;
      if (time >= from * SECOND && intervals.some(([start, end]) => time >= start * SECOND && time < end * SECOND))
        peaks.push(peak(time, (root & 127) / 2 + shift));
    }
    // An unrelated peak at the start of the history, where nothing of the track plays.
    history.add([peak(from * SECOND, 100), ...peaks]);
    return history;
  };
  const seconds = (frame: number) => Math.round((frame / SECOND) * 10) / 10;

  test('moves the start back to the earliest window holding its peaks', () => {
    // Heard from 30 s: the window from 27 s to 31 s is the earliest with peaks of the track.
    const found = earliestPlaying(
      index(() => roots),
      heard([[30, 100]]),
      settings,
      1,
      line,
      60 * SECOND,
    );
    expect(seconds(found)).toBe(27);
  });

  test("the track's peaks are looked for through the line: its place in the reference and its pitch shift", () => {
    const start = 60 * SECOND;
    const shifted = heard([[30, 100]], 0, { shift: 1.5 });
    expect(
      seconds(
        earliestPlaying(
          index(() => roots),
          shifted,
          settings,
          1,
          { ...line, pitch: 1.5 },
          start,
        ),
      ),
    ).toBe(27);
    expect(
      earliestPlaying(
        index(() => roots),
        shifted,
        settings,
        1,
        { ...line, pitch: -1.5 },
        start,
      ),
    ).toBe(start);
    expect(
      earliestPlaying(
        index(() => roots),
        shifted,
        settings,
        1,
        line,
        start,
      ),
    ).toBe(start);
    const lagging = heard([[30, 100]], 0, { lag: 500 });
    expect(
      seconds(
        earliestPlaying(
          index(() => roots),
          lagging,
          settings,
          1,
          { ...line, at: 500 },
          start,
        ),
      ),
    ).toBe(27);
    expect(
      seconds(
        earliestPlaying(
          index(() => roots),
          lagging,
          settings,
          1,
          { ...line, at: 500, origin: 0, speed: 1 },
          start,
        ),
      ),
    ).toBe(27);
    expect(
      earliestPlaying(
        index(() => roots),
        lagging,
        settings,
        1,
        line,
        start,
      ),
    ).toBe(start);
    // The same music twice as fast: a query second holds two of the reference's.
    const fast = new PeakHistory();
    fast.add(
      [...roots]
        .filter((root) => root >>> 7 >= 60 * SECOND)
        .map((root) => peak(((root >>> 7) - 60 * SECOND) / 2 + 30 * SECOND, (root & 127) / 2)),
    );
    const double: Line = { at: 60 * SECOND, origin: 30 * SECOND, speed: 2, pitch: 0 };
    // Heard from just after 30 s, where the history begins.
    const fastStart = seconds(
      earliestPlaying(
        index(() => roots),
        fast,
        settings,
        1,
        double,
        40 * SECOND,
      ),
    );
    expect(fastStart).toBeGreaterThanOrEqual(30);
    expect(fastStart).toBeLessThanOrEqual(31);
    expect(
      earliestPlaying(
        index(() => roots),
        fast,
        settings,
        1,
        { ...double, speed: 1 },
        40 * SECOND,
      ),
    ).toBe(40 * SECOND);
  });

  test("a line a little off the track's speed is aligned to its peaks before it is followed back", () => {
    // Played 2% slow, and found at 60 s (where the query's and the reference's clocks meet) with a line that says 1.0:
    // followed back as is, it misses the peaks by more than 2 frames within 2 s.
    const slow = new PeakHistory();
    slow.add([
      peak(0, 100),
      ...[...roots]
        .map((root) => peak(60 * SECOND + ((root >>> 7) - 60 * SECOND) / 0.98, (root & 127) / 2))
        .filter((p) => p.time >= 30 * SECOND && p.time < 100 * SECOND),
    ]);
    const found = earliestPlaying(
      index(() => roots),
      slow,
      settings,
      1,
      line,
      60 * SECOND,
    );
    expect(seconds(found)).toBe(27);
  });

  test('at most refineSeconds back, and never before the history', () => {
    expect(
      seconds(
        earliestPlaying(
          index(() => roots),
          heard([[0, 100]]),
          settings,
          1,
          line,
          60 * SECOND,
        ),
      ),
    ).toBe(20);
    expect(
      seconds(
        earliestPlaying(
          index(() => roots),
          heard([[0, 100]], 45),
          settings,
          1,
          line,
          60 * SECOND,
        ),
      ),
    ).toBe(45);
    expect(
      seconds(
        earliestPlaying(
          index(() => roots),
          heard([[0, 100]]),
          { ...settings, refineSeconds: 10 },
          1,
          line,
          60 * SECOND,
        ),
      ),
    ).toBe(50);
  });

  test('crosses four windows without the track, stops at the fifth', () => {
    // Windows are 4 s, a second apart: a silence of 7 s leaves four windows empty (from 40 s to 43 s), one of 8 s five.
    expect(
      seconds(
        earliestPlaying(
          index(() => roots),
          heard([
            [20, 40],
            [47, 100],
          ]),
          settings,
          1,
          line,
          60 * SECOND,
        ),
      ),
    ).toBe(20);
    expect(
      seconds(
        earliestPlaying(
          index(() => roots),
          heard([
            [20, 39],
            [47, 100],
          ]),
          settings,
          1,
          line,
          60 * SECOND,
        ),
      ),
    ).toBe(44);
  });

  test('windows where the reference has no roots (a silence in the track) are no misses', () => {
    // The reference is silent from 35 s to 47 s (no roots): the mix holds the track from 25 s, and the walk back
    // from 60 s crosses the silence, where eight windows in a row hold nothing of the track.
    const gapped = roots.filter((root) => root >>> 7 < 35 * SECOND || root >>> 7 >= 47 * SECOND);
    const history = new PeakHistory();
    history.add([
      peak(0, 100),
      ...[...gapped].filter((root) => root >>> 7 >= 25 * SECOND).map((root) => peak(root >>> 7, (root & 127) / 2)),
    ]);
    const found = seconds(
      earliestPlaying(
        index(() => gapped),
        history,
        settings,
        1,
        line,
        60 * SECOND,
      ),
    );
    expect(found).toBeGreaterThanOrEqual(21);
    expect(found).toBeLessThanOrEqual(25);
  });

  test('without roots, or with refining off, the start stays', () => {
    const history = heard([[0, 100]]);
    expect(earliestPlaying(index(), history, settings, 1, line, 60 * SECOND)).toBe(60 * SECOND);
    expect(
      earliestPlaying(
        index(() => undefined),
        history,
        settings,
        1,
        line,
        60 * SECOND,
      ),
    ).toBe(60 * SECOND);
    expect(
      earliestPlaying(
        index(() => new Uint32Array()),
        history,
        settings,
        1,
        line,
        60 * SECOND,
      ),
    ).toBe(60 * SECOND);
    expect(
      earliestPlaying(
        index(() => roots),
        history,
        { ...settings, refineSeconds: 0 },
        1,
        line,
        60 * SECOND,
      ),
    ).toBe(60 * SECOND);
  });
});

describe("a found line aligned to its track's peaks", () => {
  const random = new Random(29);
  const roots = Uint32Array.from({ length: Math.floor((100 * SECOND) / 4) }, (_, index) => ((index * 4) << 7) | random.int(20, 59));
  /** The query's peaks of the track played at `speed` (reference frames per query frame), reference 60 s at query 60 s. */
  const played = (speed: number) => {
    const history = new PeakHistory();
    history.add([...roots].map((root) => peak(60 * SECOND + ((root >>> 7) - 60 * SECOND) / speed, (root & 127) / 2)));
    return history;
  };
  const referenceAt = (line: Line, q: number) => line.at + line.speed * (q - line.origin);

  test('to a fraction of a per mille of its speed and of a frame, from a line 1% and 2 frames off', () => {
    for (const speed of [0.98, 1, 1.015]) {
      const found: Line = { at: 60 * SECOND + 2, origin: 60 * SECOND, speed: speed * 1.01, pitch: 0 };
      const aligned = alignLine(roots, played(speed), found, 60 * SECOND);
      expect(aligned.speed / speed, `${speed}`).toBeCloseTo(1, 4);
      for (const q of [60, 66, 72, 90])
        expect(
          referenceAt(aligned, q * SECOND) - referenceAt({ at: 60 * SECOND, origin: 60 * SECOND, speed, pitch: 0 }, q * SECOND),
        ).toBeCloseTo(0, 1);
    }
  });

  test('left as found without ten of its roots in the stretch, or without any of its peaks in the query', () => {
    const found: Line = { at: 60 * SECOND + 3, origin: 60 * SECOND, speed: 1.02, pitch: 0 };
    expect(alignLine(roots.slice(0, 1500), played(1), found, 120 * SECOND)).toBe(found);
    const elsewhere = new PeakHistory();
    elsewhere.add([peak(0, 20), peak(100 * SECOND, 20)]);
    expect(alignLine(roots, elsewhere, found, 60 * SECOND)).toBe(found);
  });
});
