import { instantiateReactor, type ReactorExports } from '../shared/wasm-reactor.js';

/**
 * LAME's quality setting (its -q flag, 0 best to 9 fastest) for the demo world's mixes. At the default (3), which the
 * packaged WebAssembly LAME (wasm-media-encoders) cannot change, encoding was 60 % of a first start's CPU; 7 ("fast":
 * the psychoacoustic model still picks the block types, but no noise shaping and no best-Huffman search) takes 44 %
 * less CPU for the same bit rate and frames, and synthesised music at 64 kbps sounds the same at either.
 */
export const DEMO_MP3_QUALITY = 7;

/** Samples handed to LAME per call. */
const BLOCK = 9216;

interface LameExports extends ReactorExports {
  encoder_open(sampleRate: number, kbps: number, quality: number, maxSamples: number): number;
  encoder_pcm(encoder: number): number;
  encoder_out(encoder: number): number;
  encoder_encode(encoder: number, count: number): number;
  encoder_finish(encoder: number): number;
  encoder_close(encoder: number): void;
}

export interface Mp3Settings {
  sampleRate: number;
  kbps: number;
  quality: number;
}

/** Encodes mono samples (-1 to 1) into a constant bit rate MP3. */
export type Mp3Encoder = (samples: Float32Array, settings: Mp3Settings) => Uint8Array;

/**
 * LAME 3.100 in WebAssembly (lame/lame.wasm, built from lame/encoder.c by lame/build.sh), one instance per caller: the
 * instance's memory is its own, so a thread makes one and encodes file after file with it.
 */
export async function createMp3Encoder(): Promise<Mp3Encoder> {
  const lame = await instantiateReactor<LameExports>(new URL('./lame/lame.wasm', import.meta.url));
  return (samples, { sampleRate, kbps, quality }) => {
    const encoder = lame.encoder_open(sampleRate, kbps, quality, BLOCK);
    if (!encoder) throw new Error(`LAME refused ${kbps} kbps at ${sampleRate} Hz`);
    try {
      const parts: Uint8Array[] = [];
      // The memory may grow during a call (a fresh buffer): views are taken anew each time.
      const bytes = (count: number) => {
        if (count < 0) throw new Error(`LAME failed to encode (${count})`);
        parts.push(new Uint8Array(lame.memory.buffer, lame.encoder_out(encoder), count).slice());
      };
      for (let start = 0; start < samples.length; start += BLOCK) {
        const block = samples.subarray(start, start + BLOCK);
        new Float32Array(lame.memory.buffer, lame.encoder_pcm(encoder), block.length).set(block);
        bytes(lame.encoder_encode(encoder, block.length));
      }
      bytes(lame.encoder_finish(encoder));
      const mp3 = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
      let offset = 0;
      for (const part of parts) {
        mp3.set(part, offset);
        offset += part.length;
      }
      return mp3;
    } finally {
      lame.encoder_close(encoder);
    }
  };
}
