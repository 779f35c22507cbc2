import { expect, test } from 'vitest';
import { decodeMp3 } from '../modules/recognition/mp3.js';
import { createMp3Encoder, DEMO_MP3_QUALITY } from './mp3-encoder.js';
import { MIX_BITRATE, MIX_SAMPLE_RATE } from './plan.js';

/** Seconds of a chord with a beat: something for the psychoacoustic model to work on. */
function music(seconds: number): Float32Array {
  const samples = new Float32Array(seconds * MIX_SAMPLE_RATE);
  for (let i = 0; i < samples.length; i += 1) {
    const t = i / MIX_SAMPLE_RATE;
    const beat = Math.exp(-((t * 2) % 1) * 8);
    samples[i] =
      0.3 * Math.sin(2 * Math.PI * 220 * t) + 0.2 * Math.sin(2 * Math.PI * 330 * t) + 0.3 * beat * Math.sin(2 * Math.PI * 60 * t);
  }
  return samples;
}

const settings = { sampleRate: MIX_SAMPLE_RATE, kbps: MIX_BITRATE, quality: DEMO_MP3_QUALITY };

test("a demo mix's MP3 is MPEG-2 layer III, mono, at the mixes' rate and bit rate, and decodes to its length", async () => {
  const encode = await createMp3Encoder();
  const samples = music(5);
  const mp3 = encode(samples, settings);
  // The first frame's header: sync, MPEG-2, layer III; bit rate index 8 (64 kbps), rate index 2 (16 kHz); mono.
  expect([mp3[0], (mp3[1] ?? 0) & 0xfe]).toEqual([0xff, 0xf2]);
  expect((mp3[2] ?? 0) >> 4).toBe(8);
  expect(((mp3[2] ?? 0) >> 2) & 3).toBe(2);
  expect((mp3[3] ?? 0) >> 6).toBe(3);
  // Constant bit rate: 64 kbps for 5 s, within a frame or two.
  expect(mp3.length).toBeGreaterThan(0.97 * 5 * 8000);
  expect(mp3.length).toBeLessThan(1.03 * 5 * 8000);
  let loudness = 0;
  const decoded = await decodeMp3([mp3], (mono) => {
    for (const value of mono) loudness += value * value;
  });
  expect(decoded.errors).toBe(0);
  // Recognition's decoder halves an MPEG-2 rate (mp3.ts): 8 kHz.
  expect(decoded.sampleRate).toBe(MIX_SAMPLE_RATE / 2);
  // LAME adds its delay and pads the last frame: a little more, never less.
  expect(2 * decoded.samples).toBeGreaterThanOrEqual(samples.length);
  expect(2 * decoded.samples).toBeLessThan(samples.length + 3 * 1152);
  const original = samples.reduce((sum, value) => sum + value * value, 0) / 2;
  expect(loudness / original).toBeGreaterThan(0.8);
  expect(loudness / original).toBeLessThan(1.2);
});

// The CPU it saves is a benchmark's figure (`npm run bench -- startup`), not a timed test's: here, that the setting
// reaches LAME at all (the packaged encoder ignored it).
test("the quality setting reaches LAME: the demo's fast quality writes other frames than LAME's default (3)", async () => {
  const encode = await createMp3Encoder();
  const samples = music(10);
  const fast = encode(samples, settings);
  const standard = encode(samples, { ...settings, quality: 3 });
  expect(fast.length).toBe(standard.length);
  expect(Buffer.from(fast).equals(Buffer.from(standard))).toBe(false);
  expect(Buffer.from(encode(samples, settings)).equals(Buffer.from(fast))).toBe(true);
});
