import { describe, expect, test } from 'vitest';
import { ANALYSIS_RATE } from './dsp.js';
import { PeakPicker, Spectrogram } from './peaks.js';

describe("the query's recent spectrogram", () => {
  test("a tone's level at its pitch, far above the bins away from it; nothing outside the frames held", () => {
    const spectrogram = new Spectrogram(2);
    const picker = new PeakPicker({ peaksPerBand: 5, peakFrames: 5, peakReach: 1 }, () => {}, undefined, spectrogram);
    // 3 s of 440 Hz at half of full scale: 22.5 semitones above 120 Hz.
    const tone = Float32Array.from({ length: 3 * ANALYSIS_RATE }, (_, i) => 0.5 * Math.sin((2 * Math.PI * 440 * i) / ANALYSIS_RATE));
    picker.push(tone);
    const pitch = 12 * Math.log2(440 / 120);
    // Its power is about 2^14 (the top of the byte's 96 dB is 2^16), a 3/8 dB step a level.
    expect(spectrogram.level(150, pitch, 0.4)).toBeGreaterThan(220);
    expect(spectrogram.level(150, pitch + 3, 0.4)).toBeLessThan(100);
    expect(spectrogram.level(150, pitch - 3, 0.4)).toBeLessThan(100);
    // The last 2 s of the 180 frames analysed (125 frames), less a frame each side for the neighbours read.
    expect(spectrogram.level(50, pitch, 0.4)).toBe(-1);
    expect(spectrogram.level(60, pitch, 0.4)).toBeGreaterThan(220);
    expect(spectrogram.level(190, pitch, 0.4)).toBe(-1);
  });
});
