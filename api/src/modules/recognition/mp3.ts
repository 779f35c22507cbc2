// MP3 in and out for recognition: streaming decode to mono PCM (mpg123 in WebAssembly, as the waveform job uses),
// and encoding (LAME in WebAssembly) for the test set.

import { MPEGDecoder } from 'mpg123-decoder';
import { createMp3Encoder } from 'wasm-media-encoders';

export interface DecodeSummary {
  samples: number;
  sampleRate: number;
  errors: number;
}

/** Mono samples of one decoded chunk: the channels averaged, into `scratch` when it is big enough. */
function downmix(channels: Float32Array[], count: number, scratch: Float32Array): Float32Array {
  const first = channels[0];
  if (!first) return new Float32Array(0);
  if (channels.length === 1) return first.subarray(0, count);
  const mono = scratch.length >= count ? scratch.subarray(0, count) : new Float32Array(count);
  const scale = 1 / channels.length;
  for (let i = 0; i < count; i += 1) mono[i] = first[i] * scale;
  for (let c = 1; c < channels.length; c += 1) {
    const channel = channels[c] as Float32Array;
    for (let i = 0; i < count; i += 1) mono[i] += channel[i] * scale;
  }
  return mono;
}

/**
 * Decodes an MP3 byte stream chunk by chunk, handing each decoded stretch to `onPcm` as mono samples: memory stays
 * that of one chunk whatever the file's length. `mono` is valid during the call only (its buffer is reused: an hour
 * of audio is otherwise thousands of fresh arrays for the garbage collector); copy it to keep it.
 */
export async function decodeMp3(
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  onPcm: (mono: Float32Array, sampleRate: number) => void,
): Promise<DecodeSummary> {
  const decoder = new MPEGDecoder();
  await decoder.ready;
  const summary: DecodeSummary = { samples: 0, sampleRate: 0, errors: 0 };
  // mpg123 decodes best from chunks of a few frames: split large buffers.
  const piece = 16_384;
  // Room for the samples of one piece's frames (1,152 samples per frame; a 16 KB piece holds at most ~100 frames).
  const scratch = new Float32Array(131_072);
  try {
    for await (const chunk of source) {
      const bytes = chunk instanceof Uint8Array ? chunk : new Uint8Array(chunk);
      for (let at = 0; at < bytes.length; at += piece) {
        const decoded = decoder.decode(bytes.subarray(at, Math.min(bytes.length, at + piece)));
        summary.errors += decoded.errors.length;
        if (decoded.samplesDecoded === 0) continue;
        summary.sampleRate = decoded.sampleRate;
        summary.samples += decoded.samplesDecoded;
        onPcm(downmix(decoded.channelData, decoded.samplesDecoded, scratch), decoded.sampleRate);
      }
    }
  } finally {
    decoder.free();
  }
  return summary;
}

/** Encodes mono samples as a constant-bitrate MP3 (as a DJ's recording software would). */
export async function encodeMp3(
  samples: Float32Array,
  sampleRate: number,
  kilobitrate: 64 | 96 | 128 | 160 | 192 | 320 = 128,
): Promise<Uint8Array> {
  const encoder = await createMp3Encoder();
  encoder.configure({ channels: 1, sampleRate, bitrate: kilobitrate });
  const parts: Uint8Array[] = [];
  const block = 9216;
  for (let at = 0; at < samples.length; at += block) parts.push(encoder.encode([samples.subarray(at, at + block)]).slice());
  parts.push(encoder.finalize().slice());
  const out = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
