import { describe, expect, it } from 'vitest';
import { Random } from '../../shared/random.js';
import { hashOf, probeRuns, QUERY_SETTINGS, REFERENCE_SETTINGS } from './fingerprint.js';
import { BLOCK_FRAMES, type Peak } from './peaks.js';
import { type Quad, QuadBuilder } from './quads.js';

/** Peaks as the picker gives them: a few per half-second block, in time order, between 130 Hz and 3.6 kHz. */
function peakSet(seed: number, seconds: number): Peak[] {
  const random = new Random(seed);
  const peaks: Peak[] = [];
  for (let time = 0; time < seconds * 62.5; time += random.between(2, 6))
    peaks.push({ time, pitch: random.between(4, 58), level: random.between(0, 10) });
  return peaks;
}

/** The music played `speed` times as fast with its pitch moved by `semitones`: times divided, pitches shifted. */
const played = (peaks: Peak[], speed: number, semitones: number) =>
  peaks.map((p) => ({ time: p.time / speed, pitch: p.pitch + semitones, level: p.level }));

function quadsOf(peaks: Peak[], mode: 'reference' | 'query'): Quad[] {
  const quads: Quad[] = [];
  const builder = new QuadBuilder(mode === 'reference' ? REFERENCE_SETTINGS : QUERY_SETTINGS, mode, (quad) => quads.push({ ...quad }));
  for (let from = 0; from < peaks.length; ) {
    const block = Math.floor((peaks[from] as Peak).time / BLOCK_FRAMES);
    let to = from;
    while (to < peaks.length && Math.floor((peaks[to] as Peak).time / BLOCK_FRAMES) === block) to += 1;
    builder.add(peaks.slice(from, to));
    from = to;
  }
  builder.finish();
  return quads;
}

/** Whether the query quad's probes reach the hash key (in one of its runs of pitch cells). */
function probes(quad: Quad, keys: number[], hash: number): boolean {
  const cells = probeRuns(quad, keys);
  return keys.some((first) => hash >= first && hash < first + cells);
}

/**
 * For each reference quad: whether a query quad of the transformed peaks with the same root probes its hash, and the
 * speed and pitch shift that pair says (span ratio, root pitch difference), as the matcher reads them.
 */
function found(speed: number, semitones: number) {
  const peaks = peakSet(5, 30);
  const reference = quadsOf(peaks, 'reference');
  const query = quadsOf(played(peaks, speed, semitones), 'query');
  const keys: number[] = [];
  let hits = 0;
  const speeds: number[] = [];
  const shifts: number[] = [];
  for (const quad of reference) {
    const hash = hashOf(quad);
    const match = query.find(
      (q) =>
        Math.abs(q.time - quad.time / speed) < 0.01 &&
        Math.abs(q.pitch - quad.pitch - semitones) < 0.01 &&
        Math.abs(q.span * speed - quad.span) < 0.01 &&
        probes(q, keys, hash),
    );
    if (!match) continue;
    hits += 1;
    speeds.push(quad.span / match.span);
    shifts.push(match.pitch - quad.pitch);
  }
  return { share: hits / reference.length, speeds, shifts, count: reference.length };
}

describe('quad hashes', () => {
  it.each([
    [1, 0],
    [1.16, 0],
    [0.84, 0],
    [1, 2],
    [1, -2],
    [1.16, 12 * Math.log2(1.16)],
    [0.84, 12 * Math.log2(0.84)],
    [0.88, 1],
    [1.12, -2],
  ])('stay the same when the music plays at speed %f with its pitch moved by %f semitones', (speed, semitones) => {
    const result = found(speed, semitones);
    expect(result.count).toBeGreaterThan(500);
    // The reference's quads are formed again from the transformed peaks (unless a louder peak enters the query's
    // wider window), and their hashes are among those the query probes.
    expect(result.share).toBeGreaterThan(0.9);
    for (const measured of result.speeds) expect(measured).toBeCloseTo(speed, 6);
    for (const shift of result.shifts) expect(shift).toBeCloseTo(semitones, 6);
  });
});
