import { describe, expect, test } from 'vitest';
import { Random } from '../../shared/random.js';
import type { FingerprintIndex } from './fingerprint-index.js';
import { lineEvidence } from './match-verify.js';
import { FRAMES_PER_SECOND } from './matcher-settings.js';
import { PeakHistory } from './peak-history.js';

const SECOND = FRAMES_PER_SECOND;

describe("a segment's evidence along its line", () => {
  // The track's roots: one every 4 frames over 60 s at random pitches (a root is time << 7 | 2 x pitch).
  const random = new Random(11);
  const roots = Uint32Array.from({ length: (60 * SECOND) / 4 }, (_, index) => ((index * 4) << 7) | random.int(20, 59));
  const index: FingerprintIndex = { lookup: () => undefined, size: 0, rootsOf: () => roots };
  const line = { at: 0, origin: 0, speed: 1, pitch: 0 };
  /** The query's peaks: every `share`-th of the track's roots on the line, and noise at random times and pitches. */
  const mix = (share: number, shift = 0) => {
    const noise = new Random(5);
    const peaks = [];
    for (let frame = 0; frame < 60 * SECOND; frame += 2) peaks.push({ time: frame + noise.next(), pitch: noise.between(10, 30), level: 1 });
    roots.forEach((root, i) => {
      if (i % share === 0) peaks.push({ time: root >>> 7, pitch: (root & 127) / 2 + shift, level: 1 });
    });
    peaks.sort((a, b) => a.time - b.time);
    const history = new PeakHistory();
    history.add(peaks);
    return history;
  };

  test('a third of the roots met along the line stands far above chance; none, or at another pitch, does not', () => {
    const heard = lineEvidence(index, mix(3), 1, line, 0, 60 * SECOND) as number;
    expect(heard).toBeGreaterThan(20);
    expect(lineEvidence(index, mix(1_000_000), 1, line, 0, 60 * SECOND)).toBeLessThan(3);
    // The music at another pitch than the line's (a decoy): no evidence for this line.
    expect(lineEvidence(index, mix(3, 2), 1, line, 0, 60 * SECOND)).toBeLessThan(3);
    // The same music on a line a second off misses it.
    expect(lineEvidence(index, mix(3), 1, { ...line, at: SECOND }, 0, 60 * SECOND)).toBeLessThan(3);
  });

  test('judged only on what the peak history holds, and not at all on too few roots', () => {
    expect(lineEvidence(index, mix(3), 1, line, -100 * SECOND, 200 * SECOND)).toBeCloseTo(
      lineEvidence(index, mix(3), 1, line, 0, 60 * SECOND) as number,
    );
    expect(lineEvidence(index, mix(3), 1, line, 0, 1 * SECOND)).toBeNull();
    expect(lineEvidence({ ...index, rootsOf: undefined }, mix(3), 1, line, 0, 60 * SECOND)).toBeNull();
  });
});
