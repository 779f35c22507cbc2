import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';

/** Points in a waveform: about one per 4 s of a two-hour mix, plenty for a seek bar. */
export const PEAK_COUNT = 1800;
// Blocks per peak while decoding, so the final peaks can be cut evenly even when the estimated length is off.
const BLOCKS_PER_PEAK = 4;
const FALLBACK_BLOCK_SAMPLES = 1152;
const SAMPLES_PER_FRAME = 1152;

export interface Waveform {
  /** Decoded samples per channel divided by the sample rate: the exact playing time. */
  durationSeconds: number;
  /** Loudest absolute sample per slice, 0 to 1, three decimals; at most PEAK_COUNT of them. */
  peaks: number[];
}

interface DecodeResult {
  peaks: Float32Array;
  samples: number;
  sampleRate: number;
  errors: number;
}

/** Folds block peaks into at most `count` evenly cut slices, each the loudest of its blocks. */
export function foldPeaks(blocks: ArrayLike<number>, count = PEAK_COUNT): number[] {
  const slices = Math.min(count, blocks.length);
  const peaks: number[] = [];
  for (let slice = 0; slice < slices; slice += 1) {
    const from = Math.floor((slice * blocks.length) / slices);
    const to = Math.floor(((slice + 1) * blocks.length) / slices);
    let loudest = 0;
    for (let index = from; index < to; index += 1) if (blocks[index] > loudest) loudest = blocks[index];
    peaks.push(Math.round(Math.min(loudest, 1) * 1000) / 1000);
  }
  return peaks;
}

/**
 * Decodes an MP3 stream (mpg123 compiled to WebAssembly, in a worker thread so the server's event loop stays free)
 * and measures it: exact duration and peaks. `estimatedSeconds` (from the upload's frame count) sizes the blocks.
 * Fails when nothing decodes, or when more than one frame in ten does not: that is no usable audio.
 */
export async function measureWaveform(openAudio: () => Readable, estimatedSeconds: number | null): Promise<Waveform> {
  const worker = new Worker(new URL('./waveform-worker.js', import.meta.url), {
    workerData: { estimatedSeconds, peakCount: PEAK_COUNT, blocksPerPeak: BLOCKS_PER_PEAK, fallbackBlockSamples: FALLBACK_BLOCK_SAMPLES },
  });
  const failed = once(worker, 'error').then(([error]) => Promise.reject(error as Error));
  failed.catch(() => undefined);
  const reply = () => Promise.race([once(worker, 'message').then(([message]) => message as { result?: DecodeResult }), failed]);
  try {
    for await (const chunk of openAudio()) {
      const data = new Uint8Array(chunk as Buffer);
      worker.postMessage({ chunk: data }, [data.buffer]);
      await reply();
    }
    worker.postMessage({ end: true });
    const { result } = await reply();
    if (!result || result.samples === 0 || result.sampleRate === 0) throw new Error('No MPEG audio could be decoded');
    const frames = result.samples / SAMPLES_PER_FRAME;
    if (result.errors > Math.max(2, frames / 10)) throw new Error(`Too many undecodable frames (${result.errors})`);
    return { durationSeconds: result.samples / result.sampleRate, peaks: foldPeaks(result.peaks) };
  } finally {
    await worker.terminate();
  }
}
