// What DJs do to a track, for the test set: speed changes (pitch following tempo, or key-locked), EQ and filter
// moves, and what the room adds (noise). Deterministic: randomness only through the Random passed in.

import { Random } from '../../../src/shared/random.js';

/** Plays `source` at `speed` (1.05: 5% faster) with the pitch following, as a turntable does: cubic interpolation. */
export function resample(source: Float32Array, speed: number, length: number): Float32Array {
  const out = new Float32Array(length);
  const last = source.length - 1;
  const at = (i: number) => source[i < 0 ? 0 : i > last ? last : i] as number;
  for (let n = 0; n < length; n += 1) {
    const position = n * speed;
    const i = Math.floor(position);
    const t = position - i;
    const y0 = at(i - 1);
    const y1 = at(i);
    const y2 = at(i + 1);
    const y3 = at(i + 2);
    // Catmull-Rom
    out[n] = y1 + 0.5 * t * (y2 - y0 + t * (2 * y0 - 5 * y1 + 4 * y2 - y3 + t * (3 * (y1 - y2) + y3 - y0)));
  }
  return out;
}

/**
 * Plays `source` at `speed` with the pitch kept (key lock, as CDJs do): WSOLA time stretching with 46 ms Hann
 * grains at 22.05 kHz, each placed where it best continues the previous one (within ±12 ms).
 */
export function timeStretch(source: Float32Array, speed: number, length: number): Float32Array {
  const size = 1024;
  const hop = size / 2;
  const tolerance = 256;
  const window = new Float32Array(size);
  for (let i = 0; i < size; i += 1) window[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / size);
  const out = new Float32Array(length + size);
  const get = (i: number) => (i >= 0 && i < source.length ? (source[i] as number) : 0);
  let previous = 0;
  for (let frame = 0; frame * hop < length; frame += 1) {
    const ideal = Math.round(frame * hop * speed);
    let chosen = ideal;
    if (frame > 0) {
      // The natural continuation of the previous grain, compared with candidates around the ideal position.
      const natural = previous + hop;
      let bestScore = Number.NEGATIVE_INFINITY;
      for (let delta = -tolerance; delta <= tolerance; delta += 4) {
        const candidate = ideal + delta;
        let score = 0;
        for (let i = 0; i < hop; i += 4) score += get(natural + i) * get(candidate + i);
        if (score > bestScore) {
          bestScore = score;
          chosen = candidate;
        }
      }
    }
    const base = frame * hop;
    for (let i = 0; i < size; i += 1) out[base + i] += get(chosen + i) * (window[i] as number);
    previous = chosen;
  }
  return out.subarray(0, length);
}

/**
 * Plays `source` at `speed` with the pitch moved by `semitones` (Key Sync, pitch'n'time; with `keyLock` off the
 * pitch follows the speed first, as on a turntable): WSOLA to the tempo the resampling will leave, then resampling
 * by the pitch ratio.
 */
export function speedAndPitch(source: Float32Array, speed: number, keyLock: boolean, semitones: number, length: number): Float32Array {
  const ratio = (keyLock ? 1 : speed) * 2 ** (semitones / 12);
  if (Math.abs(ratio - speed) < 1e-9) return resample(source, speed, length);
  const stretched = timeStretch(source, speed / ratio, Math.ceil(length * ratio) + 4);
  return Math.abs(ratio - 1) < 1e-9 ? stretched.slice(0, length) : resample(stretched, ratio, length);
}

/**
 * A room's reverb, in place: Schroeder's four parallel feedback combs (29.7-43.7 ms, decaying 60 dB in `seconds`)
 * and two all-passes, mixed in at `wet`.
 */
export function addReverb(samples: Float32Array, sampleRate: number, seconds: number, wet: number) {
  const combs = [0.0297, 0.0371, 0.0411, 0.0437].map((delay) => {
    const size = Math.round(delay * sampleRate);
    return { buffer: new Float32Array(size), at: 0, gain: 10 ** ((-3 * delay) / seconds) };
  });
  const passes = [0.005, 0.0017].map((delay) => ({ buffer: new Float32Array(Math.round(delay * sampleRate)), at: 0 }));
  for (let i = 0; i < samples.length; i += 1) {
    const dry = samples[i] as number;
    let sum = 0;
    for (const comb of combs) {
      const out = comb.buffer[comb.at] as number;
      comb.buffer[comb.at] = dry + out * comb.gain;
      comb.at = (comb.at + 1) % comb.buffer.length;
      sum += out;
    }
    let y = sum / combs.length;
    for (const pass of passes) {
      const delayed = pass.buffer[pass.at] as number;
      const input = y + 0.7 * delayed;
      pass.buffer[pass.at] = input;
      pass.at = (pass.at + 1) % pass.buffer.length;
      y = delayed - 0.7 * input;
    }
    samples[i] = dry * (1 - wet) + y * wet * 2;
  }
}

/** A biquad filter whose coefficients can change as it runs (RBJ cookbook). */
export class Biquad {
  private b0 = 1;
  private b1 = 0;
  private b2 = 0;
  private a1 = 0;
  private a2 = 0;
  private x1 = 0;
  private x2 = 0;
  private y1 = 0;
  private y2 = 0;

  constructor(private readonly sampleRate: number) {}

  set(kind: 'lowpass' | 'highpass' | 'lowshelf' | 'peak', frequency: number, q: number, gainDb = 0) {
    const w = (2 * Math.PI * Math.min(frequency, this.sampleRate * 0.45)) / this.sampleRate;
    const cos = Math.cos(w);
    const alpha = Math.sin(w) / (2 * q);
    const a = 10 ** (gainDb / 40);
    let b0: number;
    let b1: number;
    let b2: number;
    let a0: number;
    let a1: number;
    let a2: number;
    if (kind === 'lowpass' || kind === 'highpass') {
      b1 = kind === 'lowpass' ? 1 - cos : -(1 + cos);
      b0 = kind === 'lowpass' ? (1 - cos) / 2 : (1 + cos) / 2;
      b2 = b0;
      a0 = 1 + alpha;
      a1 = -2 * cos;
      a2 = 1 - alpha;
    } else if (kind === 'peak') {
      b0 = 1 + alpha * a;
      b1 = -2 * cos;
      b2 = 1 - alpha * a;
      a0 = 1 + alpha / a;
      a1 = -2 * cos;
      a2 = 1 - alpha / a;
    } else {
      const root = 2 * Math.sqrt(a) * alpha;
      b0 = a * (a + 1 - (a - 1) * cos + root);
      b1 = 2 * a * (a - 1 - (a + 1) * cos);
      b2 = a * (a + 1 - (a - 1) * cos - root);
      a0 = a + 1 + (a - 1) * cos + root;
      a1 = -2 * (a - 1 + (a + 1) * cos);
      a2 = a + 1 + (a - 1) * cos - root;
    }
    this.b0 = b0 / a0;
    this.b1 = b1 / a0;
    this.b2 = b2 / a0;
    this.a1 = a1 / a0;
    this.a2 = a2 / a0;
  }

  run(samples: Float32Array, from: number, to: number) {
    let { x1, x2, y1, y2 } = this;
    const { b0, b1, b2, a1, a2 } = this;
    for (let i = from; i < to; i += 1) {
      const x = samples[i] as number;
      const y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
      samples[i] = y;
      x2 = x1;
      x1 = x;
      y2 = y1;
      y1 = y;
    }
    Object.assign(this, { x1, x2, y1, y2 });
  }
}

/** One EQ move over a stretch of a play (seconds within the play). */
export interface EqMove {
  kind: 'lowpass' | 'highpass' | 'lowshelf' | 'peak';
  from: number;
  to: number;
  /** Start and end frequency (a sweep is exponential between them; it returns to `startHz` by the end if `returns`). */
  startHz: number;
  endHz: number;
  returns: boolean;
  q: number;
  gainDb: number;
}

/** Applies EQ moves in place; each move's filter is only in the signal between its times. */
export function applyEq(samples: Float32Array, sampleRate: number, moves: EqMove[]) {
  const step = 64;
  for (const move of moves) {
    const filter = new Biquad(sampleRate);
    const first = Math.max(0, Math.round(move.from * sampleRate));
    const last = Math.min(samples.length, Math.round(move.to * sampleRate));
    for (let at = first; at < last; at += step) {
      let progress = (at - first) / Math.max(1, last - first);
      if (move.returns) progress = 1 - Math.abs(1 - 2 * progress);
      const hz = move.startHz * (move.endHz / move.startHz) ** progress;
      filter.set(move.kind, hz, move.q, move.gainDb);
      filter.run(samples, at, Math.min(last, at + step));
    }
  }
}

/** Adds pink noise (Kellet's filter) at `snrDb` below the signal's RMS, in place. */
export function addPinkNoise(samples: Float32Array, snrDb: number, random: Random) {
  let power = 0;
  for (let i = 0; i < samples.length; i += 1) power += (samples[i] as number) ** 2;
  const rms = Math.sqrt(power / Math.max(1, samples.length));
  const noise = new Float32Array(samples.length);
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  let b3 = 0;
  let b4 = 0;
  let b5 = 0;
  let b6 = 0;
  let noisePower = 0;
  for (let i = 0; i < noise.length; i += 1) {
    const white = random.next() * 2 - 1;
    b0 = 0.99886 * b0 + white * 0.0555179;
    b1 = 0.99332 * b1 + white * 0.0750759;
    b2 = 0.969 * b2 + white * 0.153852;
    b3 = 0.8665 * b3 + white * 0.3104856;
    b4 = 0.55 * b4 + white * 0.5329522;
    b5 = -0.7616 * b5 - white * 0.016898;
    const pink = b0 + b1 + b2 + b3 + b4 + b5 + b6 + white * 0.5362;
    b6 = white * 0.115926;
    noise[i] = pink;
    noisePower += pink * pink;
  }
  const gain = rms / 10 ** (snrDb / 20) / Math.sqrt(noisePower / Math.max(1, noise.length));
  for (let i = 0; i < samples.length; i += 1) samples[i] = (samples[i] as number) + (noise[i] as number) * gain;
}

export { Random };
