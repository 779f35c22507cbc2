// MP3 in and out for recognition: streaming decode to mono PCM at a reduced rate (libmpg123 in WebAssembly, built for
// recognition: mpg123/), and encoding (LAME in WebAssembly) for the test set.

import { createMp3Encoder } from 'wasm-media-encoders';
import { instantiateReactor, type ReactorExports } from '../../shared/wasm-reactor.js';

export interface DecodeSummary {
  samples: number;
  /** The rate of the last samples decoded: 8,000, 11,025 or 12,000 Hz (see mpg123/decoder.c). */
  sampleRate: number;
  errors: number;
}

interface Mpg123Exports extends ReactorExports {
  decoder_open(): number;
  decoder_input(decoder: number): number;
  decoder_input_size(): number;
  decoder_output(decoder: number): number;
  decoder_feed(decoder: number, length: number): number;
  decoder_read(decoder: number): number;
  decoder_samples(decoder: number): number;
  decoder_rate(decoder: number): number;
  decoder_close(decoder: number): void;
}

/** libmpg123's status codes (mpg123.h). */
const MPG123_OK = 0;
const NEED_MORE = -10;
const NEW_FORMAT = -11;
/**
 * Reads in a row that may end in an error without a sample: libmpg123 skips a bad frame and goes on (or asks for
 * more bytes), so a read that keeps failing is a guard against looping forever, not a case met on damaged files
 * (the tests' noise and damaged frames end in a few errors); reading goes on once the next piece is fed.
 */
const MAX_FAILED_READS = 64;

/**
 * One WebAssembly instance of mpg123/mpg123.wasm (its memory, 0.7 MB, is its own), kept for the next decode on this
 * thread: a query does not pay for it.
 */
class Mpg123Instance {
  private constructor(private readonly mpg123: Mpg123Exports) {}

  static async create(): Promise<Mpg123Instance> {
    return new Mpg123Instance(await instantiateReactor<Mpg123Exports>(new URL('./mpg123/mpg123.wasm', import.meta.url)));
  }

  /** Decodes one stream, handing each fed piece's samples to `onPcm` (a view of the instance's memory). */
  async decode(
    source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
    onPcm: (mono: Float32Array, sampleRate: number) => void,
  ): Promise<DecodeSummary> {
    const { mpg123 } = this;
    const decoder = mpg123.decoder_open();
    if (!decoder) throw new Error('mpg123: could not open a decoder');
    const summary: DecodeSummary = { samples: 0, sampleRate: 0, errors: 0 };
    const pieceBytes = mpg123.decoder_input_size();
    try {
      for await (const chunk of source) {
        const bytes = chunk instanceof Uint8Array ? chunk : new Uint8Array(chunk);
        for (let at = 0; at < bytes.length; at += pieceBytes) {
          const piece = bytes.subarray(at, Math.min(bytes.length, at + pieceBytes));
          new Uint8Array(mpg123.memory.buffer, mpg123.decoder_input(decoder), piece.length).set(piece);
          if (mpg123.decoder_feed(decoder, piece.length) !== MPG123_OK) {
            summary.errors += 1;
            continue;
          }
          this.readAll(decoder, summary, onPcm);
        }
      }
    } finally {
      mpg123.decoder_close(decoder);
    }
    return summary;
  }

  private readAll(decoder: number, summary: DecodeSummary, onPcm: (mono: Float32Array, sampleRate: number) => void) {
    const { mpg123 } = this;
    let failedReads = 0;
    for (;;) {
      const status = mpg123.decoder_read(decoder);
      const count = mpg123.decoder_samples(decoder);
      if (count > 0) {
        summary.sampleRate = mpg123.decoder_rate(decoder);
        summary.samples += count;
        onPcm(new Float32Array(mpg123.memory.buffer, mpg123.decoder_output(decoder), count), summary.sampleRate);
      }
      if (status === NEED_MORE) return;
      if (status === MPG123_OK || status === NEW_FORMAT) failedReads = 0;
      else {
        summary.errors += 1;
        failedReads = count > 0 ? 0 : failedReads + 1;
        if (failedReads >= MAX_FAILED_READS) return;
      }
    }
  }
}

/** Instances not in use (one per recording decoded at once on this thread, kept for the next). */
const idle: Mpg123Instance[] = [];
const MAX_IDLE = 2;

/**
 * Decodes an MP3 byte stream chunk by chunk, handing each decoded stretch to `onPcm` as mono samples at 8,000 Hz or a
 * little above (mpg123/decoder.c says how): memory stays that of one chunk whatever the file's length. `mono` is
 * valid during the call only (it is a view of the decoder's memory); copy it to keep it.
 */
export async function decodeMp3(
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  onPcm: (mono: Float32Array, sampleRate: number) => void,
): Promise<DecodeSummary> {
  const instance = idle.pop() ?? (await Mpg123Instance.create());
  // An instance whose decode threw is dropped: a WebAssembly trap may have left its memory half-updated.
  const summary = await instance.decode(source, onPcm);
  if (idle.length < MAX_IDLE) idle.push(instance);
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
