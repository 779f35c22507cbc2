// MP3 in and out for recognition: streaming decode to mono PCM (mpg123 in WebAssembly, as the waveform job uses),
// and encoding (LAME in WebAssembly) for the test set.

import { MPEGDecoder } from 'mpg123-decoder';
import { createMp3Encoder } from 'wasm-media-encoders';

export interface DecodeSummary {
  samples: number;
  sampleRate: number;
  errors: number;
}

/** A buffer in the decoder's WebAssembly memory, as `mpg123-decoder` allocates them. */
interface WasmSlot<T> {
  ptr: number;
  len: number;
  buf: T;
}

/**
 * The parts of `MPEGDecoder` (mpg123-decoder 1.0) read directly. Its `decode` copies every read twice (a slice per
 * channel, then one array per channel for the whole call) before we average the channels into a third: an hour of
 * stereo is then 1.3 GB of short-lived arrays, a tenth of the decode's CPU and most of a query's garbage. Reading
 * the decoder's output buffer in place costs none of that; the calls are those `decode` makes, in its order.
 * These are the package's internals, so api/package.json pins its exact version: a newer one is taken on purpose,
 * with the recognition tests, and `create` refuses to run on internals it does not find.
 */
interface Mpg123 {
  ready: Promise<void>;
  free(): void;
  _common: {
    wasm: {
      mpeg_decoder_feed(decoder: number, input: number, length: number): number;
      mpeg_decoder_read(decoder: number, output: number, length: number, samples: number, rate: number, error: number): number;
      mpeg_frame_decoder_create(slot: number, gapless: number): number;
      mpeg_frame_decoder_destroy(decoder: number): void;
      free(pointer: number): void;
    };
    allocateTypedArray(length: number, type: Uint32ArrayConstructor): WasmSlot<Uint32Array>;
  };
  _decoder: number;
  _input: WasmSlot<Uint8Array>;
  _output: WasmSlot<Float32Array>;
  _samplesDecodedPtr: WasmSlot<Uint32Array>;
  _sampleRatePtr: WasmSlot<Uint32Array>;
  _errorStringPtr: WasmSlot<Uint32Array>;
}

const NEED_MORE = -10;
const NEW_FORMAT = -11;

/** One decoder and what a decode needs beside it: its WebAssembly instance (22 MB) is made once and reused. */
class PooledDecoder {
  /** Where `mpeg_frame_decoder_create` writes a new handle's address. */
  private readonly handleSlot: WasmSlot<Uint32Array>;
  /** Mono samples of one fed piece (grown when a piece holds more). */
  mono = new Float32Array(131_072);

  private constructor(readonly decoder: Mpg123) {
    this.handleSlot = decoder._common.allocateTypedArray(1, Uint32Array);
  }

  static async create(): Promise<PooledDecoder> {
    const decoder = new MPEGDecoder() as unknown as Mpg123;
    await decoder.ready;
    if (typeof decoder._common?.wasm?.mpeg_decoder_read !== 'function' || !decoder._output?.buf)
      throw new Error('mpg123-decoder: unexpected internals (the version changed?)');
    return new PooledDecoder(decoder);
  }

  /** A fresh mpg123 handle in the same instance: the next stream decodes exactly as with a new decoder. */
  reset() {
    const { decoder } = this;
    const { wasm } = decoder._common;
    wasm.mpeg_frame_decoder_destroy(decoder._decoder);
    wasm.free(decoder._decoder);
    const error = wasm.mpeg_frame_decoder_create(this.handleSlot.ptr, 1);
    if (error) throw new Error(`mpg123-decoder: could not create a decoder (${error})`);
    decoder._decoder = this.handleSlot.buf[0] as number;
  }

  /** Feeds one piece (at most the input buffer's size) and reads all it completes, averaged to mono. */
  decode(piece: Uint8Array, summary: DecodeSummary): Float32Array {
    const d = this.decoder;
    const { wasm } = d._common;
    d._input.buf.set(piece);
    let produced = 0;
    let error = wasm.mpeg_decoder_feed(d._decoder, d._input.ptr, piece.length);
    while (error !== NEED_MORE) {
      d._samplesDecodedPtr.buf[0] = 0;
      error = wasm.mpeg_decoder_read(
        d._decoder,
        d._output.ptr,
        d._output.len,
        d._samplesDecodedPtr.ptr,
        d._sampleRatePtr.ptr,
        d._errorStringPtr.ptr,
      );
      const count = d._samplesDecodedPtr.buf[0] as number;
      if (count > 0) {
        if (produced + count > this.mono.length) {
          const grown = new Float32Array(Math.max(2 * this.mono.length, produced + count));
          grown.set(this.mono.subarray(0, produced));
          this.mono = grown;
        }
        // Channels are planar: left, then right (mono files come out as two equal channels).
        const out = d._output.buf;
        const mono = this.mono;
        for (let i = 0; i < count; i += 1) mono[produced + i] = 0.5 * ((out[i] as number) + (out[count + i] as number));
        produced += count;
        summary.sampleRate = d._sampleRatePtr.buf[0] as number;
      }
      if (error !== 0 && error !== NEED_MORE && error !== NEW_FORMAT) summary.errors += 1;
    }
    summary.samples += produced;
    return this.mono.subarray(0, produced);
  }
}

/** Decoders not in use (one per recording decoded at once on this thread, kept for the next). */
const idle: PooledDecoder[] = [];
const MAX_IDLE = 2;

/**
 * Decodes an MP3 byte stream chunk by chunk, handing each decoded stretch to `onPcm` as mono samples: memory stays
 * that of one chunk whatever the file's length. `mono` is valid during the call only (its buffer is reused: an hour
 * of audio is otherwise thousands of fresh arrays for the garbage collector); copy it to keep it. The decoder (its
 * WebAssembly memory, 22 MB) is kept for the next decode on this thread, as the index is: a query does not pay for it.
 */
export async function decodeMp3(
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  onPcm: (mono: Float32Array, sampleRate: number) => void,
): Promise<DecodeSummary> {
  const decoder = idle.pop() ?? (await PooledDecoder.create());
  const summary: DecodeSummary = { samples: 0, sampleRate: 0, errors: 0 };
  // mpg123 decodes best from chunks of a few frames: split large buffers.
  const piece = 16_384;
  try {
    for await (const chunk of source) {
      const bytes = chunk instanceof Uint8Array ? chunk : new Uint8Array(chunk);
      for (let at = 0; at < bytes.length; at += piece) {
        const mono = decoder.decode(bytes.subarray(at, Math.min(bytes.length, at + piece)), summary);
        if (mono.length > 0) onPcm(mono, summary.sampleRate);
      }
    }
  } finally {
    // A fresh handle even after a failed stream: whatever state it left is gone.
    if (idle.length < MAX_IDLE) {
      decoder.reset();
      idle.push(decoder);
    } else decoder.decoder.free();
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
