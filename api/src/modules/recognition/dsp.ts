// Signal processing for fingerprinting: a streaming band-limited resampler to the analysis rate and a real FFT.
// Pure TypeScript, no allocation per sample or per frame: the hot loops run over typed arrays.

/** Fingerprints are computed at this rate: everything up to 4 kHz, which any recording and any MP3 keeps. */
export const ANALYSIS_RATE = 8000;

/**
 * Converts any sample rate to another with a windowed-sinc low-pass (cut at 0.45 of the lower rate), chunk by chunk:
 * `process` takes any number of input samples and returns the output samples they complete; `flush` the rest.
 */
export class Resampler {
  private readonly ratio: number;
  private readonly half: number;
  private readonly taps: number;
  /** The filter per phase, as float32 values held in doubles (one conversion fewer per tap in the hot loop). */
  private readonly table: Float64Array;
  private static readonly PHASES = 256;
  /** Input samples (float32 values, held as doubles for the same reason). */
  private buffer: Float64Array;
  private length: number;
  private position: number;
  /** Output of the last call, reused: an hour of audio is otherwise a hundred megabytes of short-lived arrays. */
  private out = new Float32Array(8192);

  constructor(
    readonly inputRate: number,
    readonly outputRate = ANALYSIS_RATE,
  ) {
    this.ratio = inputRate / outputRate;
    // Cut-off as a fraction of the input's Nyquist frequency.
    const cutoff = Math.min(1, 0.9 / this.ratio);
    this.half = Math.ceil(4 / cutoff);
    this.taps = 2 * this.half;
    const table = new Float32Array(Resampler.PHASES * this.taps);
    for (let phase = 0; phase < Resampler.PHASES; phase += 1) {
      const fraction = phase / Resampler.PHASES;
      let sum = 0;
      for (let k = 0; k < this.taps; k += 1) {
        const distance = k - this.half + 1 - fraction;
        const x = cutoff * distance;
        const sinc = x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
        const w =
          Math.abs(distance) >= this.half
            ? 0
            : 0.42 + 0.5 * Math.cos((Math.PI * distance) / this.half) + 0.08 * Math.cos((2 * Math.PI * distance) / this.half);
        const value = cutoff * sinc * w;
        table[phase * this.taps + k] = value;
        sum += value;
      }
      // Unity gain at DC for every phase.
      for (let k = 0; k < this.taps; k += 1) table[phase * this.taps + k] /= sum;
    }
    this.table = Float64Array.from(table);
    this.buffer = new Float64Array(Math.max(4096, this.taps * 4));
    // Left context of silence: the first output sample sits on the first input sample.
    this.length = this.half - 1;
    this.position = this.half - 1;
  }

  /** The output is valid until the next call (its buffer is reused): copy it to keep it. */
  process(input: Float32Array): Float32Array {
    this.append(input);
    return this.drain();
  }

  /** The output still held back for lack of right context (as if silence followed); valid until the next call. */
  flush(): Float32Array {
    this.append(new Float32Array(this.half + 1));
    return this.drain();
  }

  private append(input: Float32Array) {
    if (this.length + input.length > this.buffer.length) {
      const grown = new Float64Array(Math.max(this.buffer.length * 2, this.length + input.length));
      grown.set(this.buffer.subarray(0, this.length));
      this.buffer = grown;
    }
    this.buffer.set(input, this.length);
    this.length += input.length;
  }

  private drain(): Float32Array {
    const { buffer, table, taps, half, ratio } = this;
    const phases = Resampler.PHASES;
    const count = Math.max(0, Math.floor((this.length - half - this.position) / ratio) + 1);
    if (this.out.length < count) this.out = new Float32Array(Math.max(count, 2 * this.out.length));
    const out = this.out;
    let produced = 0;
    let position = this.position;
    while (produced < count) {
      const whole = Math.floor(position);
      if (whole + half >= this.length) break;
      const phase = Math.min(phases - 1, Math.round((position - whole) * phases));
      let t = phase * taps;
      let i = whole - half + 1;
      const end = i + taps;
      // Two taps a turn (taps is even), added in the same order as one at a time: the same sums, fewer loop tests.
      let sum = 0;
      for (; i < end; i += 2, t += 2) {
        sum += buffer[i] * table[t];
        sum += buffer[i + 1] * table[t + 1];
      }
      out[produced] = sum;
      produced += 1;
      position += ratio;
    }
    // Keep only the context the next output samples need.
    const keepFrom = Math.max(0, Math.floor(position) - half + 1);
    buffer.copyWithin(0, keepFrom, this.length);
    this.length -= keepFrom;
    this.position = position - keepFrom;
    return out.subarray(0, produced);
  }
}

/** A real FFT of a power-of-two size (at least 16), as a complex FFT of half the size, giving power spectra. */
export class RealFft {
  private readonly half: number;
  /** Per stage from span 4 on: cos and -sin of the stage's twiddles, interleaved. */
  private readonly twiddles: Float64Array[] = [];
  private readonly cosN: Float64Array;
  private readonly sinN: Float64Array;
  private readonly reverse: Uint32Array;
  private readonly re: Float64Array;
  private readonly im: Float64Array;

  constructor(readonly size: number) {
    if (size < 16 || (size & (size - 1)) !== 0) throw new Error('FFT size must be a power of two, at least 16');
    const half = size / 2;
    this.half = half;
    for (let span = 4; span < half; span *= 2) {
      const stage = new Float64Array(span * 2);
      for (let k = 0; k < span; k += 1) {
        stage[2 * k] = Math.cos((Math.PI * k) / span);
        stage[2 * k + 1] = -Math.sin((Math.PI * k) / span);
      }
      this.twiddles.push(stage);
    }
    this.cosN = new Float64Array(half + 1);
    this.sinN = new Float64Array(half + 1);
    for (let k = 0; k <= half; k += 1) {
      this.cosN[k] = Math.cos((2 * Math.PI * k) / size);
      this.sinN[k] = -Math.sin((2 * Math.PI * k) / size);
    }
    this.reverse = new Uint32Array(half);
    const bits = Math.log2(half);
    for (let i = 0; i < half; i += 1) {
      let r = 0;
      for (let b = 0; b < bits; b += 1) r |= ((i >> b) & 1) << (bits - 1 - b);
      this.reverse[i] = r;
    }
    this.re = new Float64Array(half);
    this.im = new Float64Array(half);
  }

  /** |X[k]|^2 for k from `from` to `to` - 1 (at most size / 2), of `input` (length `size`), into `out`. */
  power(input: Float32Array | Float64Array, out: Float32Array, from: number, to: number) {
    const { half, re, im, reverse } = this;
    for (let i = 0; i < half; i += 1) {
      const j = reverse[i];
      re[j] = input[2 * i];
      im[j] = input[2 * i + 1];
    }
    this.transform(out, from, to);
  }

  /**
   * As `power`, of a ring of `size` samples whose oldest is at `oldest`, times `window`: the same products as a
   * windowed copy would hold, read straight into the transform's order (one pass over the frame instead of two).
   */
  powerOfRing(ring: Float32Array, oldest: number, window: Float64Array, out: Float32Array, from: number, to: number) {
    const { half, re, im, reverse, size } = this;
    const mask = size - 1;
    for (let i = 0; i < half; i += 1) {
      const j = reverse[i];
      re[j] = ring[(oldest + 2 * i) & mask] * window[2 * i];
      im[j] = ring[(oldest + 2 * i + 1) & mask] * window[2 * i + 1];
    }
    this.transform(out, from, to);
  }

  private transform(out: Float32Array, from: number, to: number) {
    const { half, re, im } = this;
    // The first two stages at once: radix-4 butterflies whose twiddles are 1 and -i.
    for (let s = 0; s < half; s += 4) {
      const r0 = re[s];
      const i0 = im[s];
      const r1 = re[s + 1];
      const i1 = im[s + 1];
      const r2 = re[s + 2];
      const i2 = im[s + 2];
      const r3 = re[s + 3];
      const i3 = im[s + 3];
      const ar = r0 + r1;
      const ai = i0 + i1;
      const br = r0 - r1;
      const bi = i0 - i1;
      const cr = r2 + r3;
      const ci = i2 + i3;
      const dr = r2 - r3;
      const di = i2 - i3;
      re[s] = ar + cr;
      im[s] = ai + ci;
      re[s + 2] = ar - cr;
      im[s + 2] = ai - ci;
      re[s + 1] = br + di;
      im[s + 1] = bi - dr;
      re[s + 3] = br - di;
      im[s + 3] = bi + dr;
    }
    // The radix-2 stages two at a time: the four values of two stages' butterflies stay in registers between them
    // (half the loads and stores of one stage at a time), each butterfly computed as before, so the same results.
    let stage = 0;
    let span = 4;
    for (; 2 * span < half; span *= 4, stage += 2) {
      const first = this.twiddles[stage] as Float64Array;
      const second = this.twiddles[stage + 1] as Float64Array;
      const stride = span * 4;
      // Group by group, twiddle by twiddle within: the inner loop runs span times (a twiddle-outer loop would run
      // its inner one twice for the wide stages, mostly loop overhead).
      for (let g = 0; g < half; g += stride) {
        for (let k = 0, a = g; k < span; k += 1, a += 1) {
          const w1r = first[2 * k];
          const w1i = first[2 * k + 1];
          const w2r = second[2 * k];
          const w2i = second[2 * k + 1];
          const w3r = second[2 * (k + span)];
          const w3i = second[2 * (k + span) + 1];
          const b = a + span;
          const c = b + span;
          const d = c + span;
          // First stage: (a, b) and (c, d), both with the twiddle k of span.
          let ar = re[a];
          let ai = im[a];
          let xr = re[b] * w1r - im[b] * w1i;
          let xi = re[b] * w1i + im[b] * w1r;
          const br = ar - xr;
          const bi = ai - xi;
          ar += xr;
          ai += xi;
          let cr = re[c];
          let ci = im[c];
          xr = re[d] * w1r - im[d] * w1i;
          xi = re[d] * w1i + im[d] * w1r;
          const dr = cr - xr;
          const di = ci - xi;
          cr += xr;
          ci += xi;
          // Second stage: (a, c) with the twiddle k of twice the span, (b, d) with k + span.
          xr = cr * w2r - ci * w2i;
          xi = cr * w2i + ci * w2r;
          re[c] = ar - xr;
          im[c] = ai - xi;
          re[a] = ar + xr;
          im[a] = ai + xi;
          xr = dr * w3r - di * w3i;
          xi = dr * w3i + di * w3r;
          re[d] = br - xr;
          im[d] = bi - xi;
          re[b] = br + xr;
          im[b] = bi + xi;
        }
      }
    }
    for (; span < half; span *= 2, stage += 1) {
      const twiddles = this.twiddles[stage] as Float64Array;
      // Twiddle by twiddle: each is loaded once per stage, not once per group (the butterflies are independent).
      const stride = span * 2;
      for (let k = 0; k < span; k += 1) {
        const wr = twiddles[2 * k];
        const wi = twiddles[2 * k + 1];
        for (let a = k; a < half; a += stride) {
          const b = a + span;
          const xr = re[b] * wr - im[b] * wi;
          const xi = re[b] * wi + im[b] * wr;
          re[b] = re[a] - xr;
          im[b] = im[a] - xi;
          re[a] += xr;
          im[a] += xi;
        }
      }
    }
    // Untangle the two interleaved real transforms: X = E + W^k O, with E and O from Z[k] and conj(Z[half - k]).
    for (let k = from; k < to; k += 1) {
      const at = k === half ? 0 : k;
      const mirror = k === 0 ? 0 : half - k;
      const zr = re[at];
      const zi = im[at];
      const mr = re[mirror];
      const mi = -im[mirror];
      const er = 0.5 * (zr + mr);
      const ei = 0.5 * (zi + mi);
      const dr = 0.5 * (zr - mr);
      const di = 0.5 * (zi - mi);
      const wr = this.cosN[k];
      const wi = this.sinN[k];
      const xr = er + di * wr + dr * wi;
      const xi = ei + di * wi - dr * wr;
      out[k - from] = xr * xr + xi * xi;
    }
  }
}
