import { foldPeaks } from '../modules/media/waveform.js';
import { CROSSFADE_SECONDS, type PlannedMix, type PlannedWorld } from './plan.js';
import { renderReference, SAMPLE_RATE } from './synth.js';

/** Headroom, so two references at full level in a crossfade stay inside -1 to 1 most of the time. */
const LEVEL = 0.9;

interface Fades {
  length: number;
  in: Float32Array;
  out: Float32Array;
}

/** Equal-power gains (sine in, cosine out: their squares add up to one), with the headroom applied. */
function fadeCurve(length: number, shape: (angle: number) => number): Float32Array {
  const curve = new Float32Array(length);
  for (let i = 0; i < length; i += 1) curve[i] = shape((Math.PI / 2) * (i / length)) * LEVEL;
  return curve;
}
const fadesAt = new Map<number, Fades>();
function fadesOf(sampleRate: number): Fades {
  let fades = fadesAt.get(sampleRate);
  if (!fades) {
    const length = Math.round(CROSSFADE_SECONDS * sampleRate);
    fades = { length, in: fadeCurve(length, Math.sin), out: fadeCurve(length, Math.cos) };
    fadesAt.set(sampleRate, fades);
  }
  return fades;
}

/** Adds `audio` to `out` from `offset` on, fading it in over its first samples and out over its last, when asked. */
function addSegment(out: Float32Array, audio: Float32Array, offset: number, fades: Fades, fadesIn: boolean, fadesOut: boolean) {
  const length = Math.min(audio.length, out.length - offset);
  const fadeInEnd = fadesIn ? Math.min(fades.length, length) : 0;
  const fadeOutStart = fadesOut ? Math.max(fadeInEnd, length - fades.length) : length;
  const fadeOutOffset = length - fades.length;
  for (let i = 0; i < fadeInEnd; i += 1) out[offset + i] += audio[i] * fades.in[i];
  for (let i = fadeInEnd; i < fadeOutStart; i += 1) out[offset + i] += audio[i] * LEVEL;
  for (let i = fadeOutStart; i < length; i += 1) out[offset + i] += audio[i] * fades.out[i - fadeOutOffset];
}

/**
 * A mix's audio: its tracklist's references one after the other, each segment taken from its own place in its
 * reference, crossfaded where one segment's end overlaps the next one's start. The first segment does not fade in
 * and the last does not fade out.
 */
export function mixAudio(mix: PlannedMix, world: Pick<PlannedWorld, 'references'>, sampleRate = SAMPLE_RATE): Float32Array {
  const fades = fadesOf(sampleRate);
  const out = new Float32Array(Math.round(mix.durationSeconds * sampleRate));
  mix.segments.forEach((segment, position) => {
    const reference = world.references[segment.reference];
    if (!reference) throw new Error(`no reference ${segment.reference}`);
    const from = segment.sourceStart;
    const audio = renderReference(reference.recipe, sampleRate, from, from + segment.endTime - segment.startTime);
    addSegment(out, audio, Math.round(segment.startTime * sampleRate), fades, position > 0, position < mix.segments.length - 1);
  });
  return out;
}

/** The seek bar's peaks from the samples themselves (what the waveform job would measure from the MP3). */
export function peaksOf(samples: Float32Array): number[] {
  const blockSize = 1024;
  const blocks = new Float32Array(Math.ceil(samples.length / blockSize));
  for (let block = 0; block < blocks.length; block += 1) {
    let loudest = 0;
    const end = Math.min(samples.length, (block + 1) * blockSize);
    for (let i = block * blockSize; i < end; i += 1) {
      const value = Math.abs(samples[i]);
      if (value > loudest) loudest = value;
    }
    blocks[block] = loudest;
  }
  return foldPeaks(blocks);
}
