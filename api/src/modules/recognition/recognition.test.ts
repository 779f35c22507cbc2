import { describe, expect, it, vi } from 'vitest';
import { createMp3Encoder } from 'wasm-media-encoders';
import {
  CONDITIONS,
  HARD_CONDITIONS,
  type MixCondition,
  planMix,
  referenceAudio,
  renderMix,
  score,
  TEST_SAMPLE_RATE,
  testReferences,
  truthOf,
} from '../../../test/support/recognition-test-set/generate.js';
import { ANALYSIS_RATE, RealFft, Resampler } from './dsp.js';
import { fingerprintReference, HASH_SPACE } from './fingerprint.js';
import { type FingerprintIndex, IndexBuilder, type MemoryIndex } from './fingerprint-index.js';
import { type RawDetection, RecognitionSession } from './matcher.js';
import { decodeMp3, encodeMp3 } from './mp3.js';
import { fingerprintRows, nameDetections, recognizeMp3 } from './recognition.js';

// A small catalogue (75 s references) and short mixes: three or four plays each, with crossfades of 16 to 24 s.
const SET = testReferences(7, 8, 3, 75);
let fingerprints: { track: number; hashes: Uint32Array; data: Uint32Array }[] | null = null;
let cached: MemoryIndex | null = null;
function catalogueFingerprints() {
  fingerprints ??= SET.references
    .filter((r) => r.known)
    .map((reference) => ({ track: reference.track, ...fingerprintReference(referenceAudio(reference), TEST_SAMPLE_RATE) }));
  return fingerprints;
}
function catalogueIndex(): MemoryIndex {
  if (cached) return cached;
  const builder = new IndexBuilder();
  for (const reference of catalogueFingerprints()) builder.add(reference.track, reference);
  cached = builder.build();
  return cached;
}

const short = (condition: MixCondition): MixCondition => ({ ...condition, play: [35, 45], crossfade: [16, 24], unknownShare: 0.25 });
const base = CONDITIONS[0] as MixCondition;

function recognise(samples: Float32Array, index: FingerprintIndex = catalogueIndex()): RawDetection[] {
  const session = new RecognitionSession(index, TEST_SAMPLE_RATE);
  for (let at = 0; at < samples.length; at += 20_000) session.push(samples.subarray(at, at + 20_000));
  return session.finish();
}

function expectFound(condition: MixCondition, seed: number, plan = short) {
  const mix = planMix(SET, plan(condition), seed, 3);
  const truth = truthOf(mix);
  const detections = recognise(renderMix(SET, mix));
  const result = score(truth, detections);
  expect(truth.length).toBeGreaterThanOrEqual(2);
  expect(result.found).toBe(truth.length);
  expect(result.falseDetections).toBe(0);
  // Starts within 5 s of the fade-in's start (median), though a track fading in is inaudible for its first seconds.
  const errors = [...result.startErrors].sort((a, b) => a - b);
  expect(errors[errors.length >> 1]).toBeLessThan(5);
  for (const error of errors) expect(error).toBeLessThan(15);
  // The speed and pitch shift each play was found at are those it was played at.
  for (const detection of detections) {
    const play = truth.find((t) => t.track === detection.track);
    expect(Math.abs(detection.speed - (play?.speed ?? 0))).toBeLessThan(0.01);
    expect(Math.abs(detection.pitchShift - (play?.pitchShift ?? 99))).toBeLessThan(0.3);
  }
  return { mix, detections };
}

describe('signal processing', () => {
  it('computes power spectra as a plain DFT does', () => {
    const size = 256;
    const input = Float64Array.from({ length: size }, (_, i) => Math.sin(i * 0.37) + 0.5 * Math.cos(i * 1.9) + (i % 7) / 10);
    const power = new Float32Array(size / 2);
    new RealFft(size).power(input, power, 0, size / 2);
    for (const k of [0, 1, 15, 77, 127]) {
      let re = 0;
      let im = 0;
      for (let n = 0; n < size; n += 1) {
        re += input[n] * Math.cos((2 * Math.PI * k * n) / size);
        im -= input[n] * Math.sin((2 * Math.PI * k * n) / size);
      }
      expect(power[k]).toBeCloseTo(re * re + im * im, 1);
    }
  });

  it('gives a windowed ring of samples the power spectrum of its windowed copy, wherever the ring starts', () => {
    const size = 64;
    const ring = Float32Array.from({ length: size }, (_, i) => Math.sin(i * 0.9) + (i % 5) / 4);
    const window = Float64Array.from({ length: size }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / size));
    const fft = new RealFft(size);
    for (const oldest of [0, 1, 37, size - 1]) {
      const copy = Float64Array.from({ length: size }, (_, i) => (ring[(oldest + i) % size] as number) * (window[i] as number));
      const expected = new Float32Array(size / 2);
      fft.power(copy, expected, 0, size / 2);
      const got = new Float32Array(size / 2);
      fft.powerOfRing(ring, oldest, window, got, 0, size / 2);
      expect(got).toEqual(expected);
    }
  });

  it('resamples to the analysis rate chunk by chunk, keeping a tone and removing what cannot be represented', () => {
    const rate = 44_100;
    const tone = (hz: number) => Float32Array.from({ length: rate }, (_, i) => Math.sin((2 * Math.PI * hz * i) / rate));
    const run = (input: Float32Array) => {
      const resampler = new Resampler(rate, ANALYSIS_RATE);
      const parts = [];
      for (let at = 0; at < input.length; at += 1000) parts.push(resampler.process(input.subarray(at, at + 1000)).slice());
      parts.push(resampler.flush());
      const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
      let offset = 0;
      for (const part of parts) {
        out.set(part, offset);
        offset += part.length;
      }
      return out;
    };
    const kept = run(tone(1000));
    expect(Math.abs(kept.length - ANALYSIS_RATE)).toBeLessThan(40);
    const middle = kept.subarray(2000, 6000);
    const rms = Math.sqrt(middle.reduce((s, v) => s + v * v, 0) / middle.length);
    expect(rms).toBeCloseTo(Math.SQRT1_2, 1);
    // The same phase as a 1 kHz tone sampled at 8 kHz.
    for (let i = 2000; i < 2010; i += 1) expect(kept[i]).toBeCloseTo(Math.sin((2 * Math.PI * 1000 * i) / ANALYSIS_RATE), 1);
    const removed = run(tone(6000)).subarray(2000, 6000);
    expect(Math.sqrt(removed.reduce((s, v) => s + v * v, 0) / removed.length)).toBeLessThan(0.01);
  });
});

describe('fingerprints', () => {
  it('are deterministic 32-bit rows within the hash space, a few dozen per second', () => {
    const reference = SET.references[0];
    if (!reference) throw new Error('no reference');
    const audio = referenceAudio(reference);
    const first = fingerprintReference(audio, TEST_SAMPLE_RATE);
    const again = fingerprintReference(audio, TEST_SAMPLE_RATE);
    expect(again.hashes).toEqual(first.hashes);
    expect(again.data).toEqual(first.data);
    const perSecond = first.hashes.length / first.seconds;
    expect(perSecond).toBeGreaterThan(10);
    expect(perSecond).toBeLessThan(80);
    for (const hash of first.hashes) expect(hash).toBeLessThan(HASH_SPACE);
    const rows = [...fingerprintRows(3, first)];
    expect(rows).toHaveLength(first.hashes.length);
    expect(rows[0]).toEqual({ hash: first.hashes[0], track: 3, data: (first.data[0] as number) | 0 });
    for (const row of rows) expect(row.data).toBeGreaterThanOrEqual(-(2 ** 31));
  });
});

// Each case renders and recognises minutes of audio: seconds alone, a minute or more on a machine shared by several runs.
describe('recognition of generated mixes', { timeout: 120_000 }, () => {
  it('finds every catalogue track of a mix with its times, and nothing for the tracks it does not know', () => {
    const { mix, detections } = expectFound(base, 11);
    expect(mix.plays.some((play) => !play.known)).toBe(true);
    expect(detections.map((d) => d.start)).toEqual([...detections.map((d) => d.start)].sort((a, b) => a - b));
    for (const detection of detections) {
      const play = mix.plays.find((p) => p.track === detection.track);
      if (!play) throw new Error('detected a track that was not played');
      expect(detection.end).toBeGreaterThan(play.fadeOutStart - 15);
      expect(detection.end).toBeLessThan(play.end + 5);
      expect(detection.confidence).toBeGreaterThan(0.5);
    }
  });

  it('reports no track whose own peaks are not heard along its line, however many quads line up', () => {
    const mix = planMix(SET, short(base), 11, 3);
    const samples = renderMix(SET, mix);
    const index = catalogueIndex();
    // Each track's roots swapped for another's: its quads still line up, its peaks no longer meet the mix.
    const tracks = SET.references.filter((r) => r.known).map((r) => r.track);
    const swapped = {
      lookup: index.lookup.bind(index),
      size: index.size,
      rootsOf: (track: number) => index.rootsOf(tracks[(tracks.indexOf(track) + 1) % tracks.length] as number),
    };
    expect(recognise(samples, swapped)).toEqual([]);
    expect(recognise(samples).length).toBe(truthOf(mix).length);
  });

  it('survives speed changes of ±6–8% with the pitch following', () => expectFound(CONDITIONS[2] as MixCondition, 12));
  it('survives key-locked tempo changes of ±6%', () => expectFound(CONDITIONS[3] as MixCondition, 13));
  it('survives EQ and filter sweeps', () => expectFound(CONDITIONS[4] as MixCondition, 14));
  it('survives noise at 10 dB SNR', () => expectFound(CONDITIONS[5] as MixCondition, 15));

  // The club conditions as they are (30-45 s plays, 8-16 s blends, reverb, noise), a quarter of the plays unknown.
  const club = (condition: MixCondition): MixCondition => ({ ...condition, unknownShare: 0.25 });
  const hard = (name: string) => HARD_CONDITIONS.find((condition) => condition.name === name) as MixCondition;
  it('finds 30-45 s plays in a reverberant room', () => expectFound(hard('30–45 s plays, reverb, 64 kbps'), 21, club));
  it('survives speed changes of ±10–16% with the pitch following', () => expectFound(hard('±10–16% turntable'), 22, club));
  it('survives key-locked tempo changes of ±10–16%', () => expectFound(hard('±10–16% key lock'), 23, club));
  it('survives key shifts of ±1–2 semitones at the original tempo', () => expectFound(hard('key shift ±1–2 st'), 24, club));
  it('survives key lock at ±4–12% with a key shift of ±1–2 semitones', () => expectFound(hard('key lock ±4–12% + ±1–2 st'), 25, club));

  it('reads MP3 at 128 kbps as a stream, from rows read back from storage, reporting progress', async () => {
    const mix = planMix(SET, short({ ...(CONDITIONS[7] as MixCondition), noiseDb: null }), 16, 3);
    const mp3 = await encodeMp3(renderMix(SET, mix), TEST_SAMPLE_RATE, 128);
    // The index as the job would build it: from stored rows.
    const builder = new IndexBuilder();
    for (const reference of catalogueFingerprints()) {
      for (const row of fingerprintRows(reference.track, reference)) builder.addRow(row.hash, row.track, row.data);
    }
    const index = builder.build();
    const progress: number[] = [];
    const chunks = function* () {
      for (let at = 0; at < mp3.length; at += 8192) yield mp3.subarray(at, at + 8192);
    };
    const detections = await recognizeMp3(chunks(), index, {
      durationSeconds: mix.durationSeconds,
      onProgress: (p) => progress.push(p.fraction ?? -1),
    });
    const result = score(truthOf(mix), detections);
    expect(result.found).toBe(truthOf(mix).length);
    expect(result.falseDetections).toBe(0);
    expect(progress.length).toBeGreaterThan(10);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress[progress.length - 1]).toBeGreaterThan(0.95);
    const named = nameDetections(detections, (track) => ({ trackId: `t${track}`, externalId: `x${track}`, title: `Track ${track}` }));
    expect(named[0]).toMatchObject({
      trackId: `t${detections[0]?.track}`,
      start: expect.any(Number),
      confidence: expect.any(Number),
      speed: expect.any(Number),
      pitchShift: expect.any(Number),
    });
  });

  it('decodes MP3 to mono at the lowest of its rate, a half or a quarter that is at least the analysis rate', async () => {
    // A stereo file at 44.1 kHz (MPEG-1) and a mono one at 22.05 kHz (MPEG-2), each a 440 Hz tone: both come out
    // mono at 11,025 Hz, the stereo one as the average of its channels (0.4 left, 0.2 right: 0.3).
    const tone = (rate: number, amplitude: number) =>
      Float32Array.from({ length: rate }, (_, i) => amplitude * Math.sin((2 * Math.PI * 440 * i) / rate));
    const stereoEncoder = await createMp3Encoder();
    stereoEncoder.configure({ channels: 2, sampleRate: 44_100, bitrate: 128 });
    const stereo = [stereoEncoder.encode([tone(44_100, 0.4), tone(44_100, 0.2)]).slice(), stereoEncoder.finalize().slice()];
    const files = [
      { parts: stereo, amplitude: 0.3 },
      { parts: [await encodeMp3(tone(22_050, 0.3), 22_050)], amplitude: 0.3 },
    ];
    for (const { parts, amplitude } of files) {
      const rates = new Set<number>();
      const decoded: number[] = [];
      const summary = await decodeMp3(parts, (mono, rate) => {
        rates.add(rate);
        decoded.push(...mono);
      });
      expect(summary.errors).toBe(0);
      expect([...rates]).toEqual([11_025]);
      expect(decoded.length).toBeGreaterThanOrEqual(11_025);
      expect(decoded.length).toBeLessThan(11_025 + 3 * 288);
      // The middle half second against the tone at the decoded rate: its amplitude, and what is left once it is
      // taken out (phase unknown: the encoder's delay).
      const middle = decoded.slice(2756, 2756 + 5512);
      let sine = 0;
      let cosine = 0;
      middle.forEach((value, i) => {
        sine += value * Math.sin((2 * Math.PI * 440 * i) / 11_025);
        cosine += value * Math.cos((2 * Math.PI * 440 * i) / 11_025);
      });
      sine *= 2 / middle.length;
      cosine *= 2 / middle.length;
      expect(Math.hypot(sine, cosine)).toBeCloseTo(amplitude, 1);
      const residual = middle.reduce((sum, value, i) => {
        const fitted = sine * Math.sin((2 * Math.PI * 440 * i) / 11_025) + cosine * Math.cos((2 * Math.PI * 440 * i) / 11_025);
        return sum + (value - fitted) ** 2;
      }, 0);
      expect(Math.sqrt(residual / middle.length)).toBeLessThan(0.05 * amplitude);
    }
  });

  it('decodes each MPEG rate at 8,000 Hz or the least above it that the rate halves or quarters to', async () => {
    const expected: [number, number][] = [
      [48_000, 12_000],
      [44_100, 11_025],
      [32_000, 8_000],
      [24_000, 12_000],
      [22_050, 11_025],
      [16_000, 8_000],
      [12_000, 12_000],
      [11_025, 11_025],
      [8_000, 8_000],
    ];
    for (const [fileRate, decodedRate] of expected) {
      const tone = Float32Array.from({ length: fileRate }, (_, i) => 0.5 * Math.sin((2 * Math.PI * 440 * i) / fileRate));
      const summary = await decodeMp3([await encodeMp3(tone, fileRate, 64)], () => undefined);
      expect([fileRate, summary.sampleRate, summary.errors]).toEqual([fileRate, decodedRate, 0]);
      expect(summary.samples / decodedRate).toBeCloseTo(1, 0);
    }
  });

  it('follows a stream whose rate changes, each part at its own reduced rate', async () => {
    const tone = (rate: number) => Float32Array.from({ length: rate }, (_, i) => 0.5 * Math.sin((2 * Math.PI * 440 * i) / rate));
    const parts = [await encodeMp3(tone(44_100), 44_100), await encodeMp3(tone(48_000), 48_000)];
    const runs: { rate: number; samples: number }[] = [];
    const summary = await decodeMp3(parts, (mono, rate) => {
      const last = runs[runs.length - 1];
      if (last?.rate === rate) last.samples += mono.length;
      else runs.push({ rate, samples: mono.length });
    });
    expect(summary.errors).toBe(0);
    expect(runs.map((run) => run.rate)).toEqual([11_025, 12_000]);
    for (const run of runs) expect(run.samples / run.rate).toBeCloseTo(1, 0);
  });

  it('counts the errors of a damaged or truncated MP3 and decodes the rest', async () => {
    const tone = Float32Array.from({ length: 2 * 44_100 }, (_, i) => 0.5 * Math.sin((2 * Math.PI * 440 * i) / 44_100));
    const mp3 = await encodeMp3(tone, 44_100);
    const damaged = mp3.slice();
    // Six kilobytes of noise from the 4th frame on: frames lost (five errors), the stream found again after them.
    for (let at = 3000; at < 9000; at += 1) damaged[at] = (at * 2_654_435_761) >>> 24;
    const damagedSummary = await decodeMp3([damaged], () => undefined);
    expect(damagedSummary.errors).toBeGreaterThan(0);
    expect(damagedSummary.samples).toBeGreaterThan(11_025);
    expect(damagedSummary.samples).toBeLessThan(2 * 11_025);
    const truncated = await decodeMp3([mp3.subarray(0, mp3.length >> 1)], () => undefined);
    expect(truncated.samples).toBeGreaterThan(0.4 * 2 * 11_025);
    const noise = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 2_654_435_761) >>> 24);
    expect((await decodeMp3([noise], () => undefined)).samples).toBe(0);
  });

  it('decodes with the decoder of an earlier decode (no new WebAssembly memory per query), as a new decoder would', async () => {
    const tone = Float32Array.from({ length: TEST_SAMPLE_RATE }, (_, i) => 0.5 * Math.sin((2 * Math.PI * 330 * i) / TEST_SAMPLE_RATE));
    const mp3 = await encodeMp3(tone, TEST_SAMPLE_RATE);
    const decodeAll = async () => {
      const parts: number[] = [];
      await decodeMp3([mp3.subarray(0, 3000), mp3.subarray(3000)], (mono) => parts.push(...mono));
      return parts;
    };
    const first = await decodeAll();
    // The API's compiler settings have no WebAssembly types: the one function watched, typed here.
    const wasm = (globalThis as unknown as { WebAssembly: { instantiate: (...args: unknown[]) => unknown } }).WebAssembly;
    const instantiate = vi.spyOn(wasm, 'instantiate');
    try {
      const second = await decodeAll();
      expect(instantiate).not.toHaveBeenCalled();
      expect(second).toEqual(first);
    } finally {
      instantiate.mockRestore();
    }
  });
});
