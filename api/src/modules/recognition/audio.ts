// Audio in for recognition: an MP3 or a WAV (PCM 8/16/24/32-bit or 32-bit float) byte stream, told apart by its
// first bytes, decoded chunk by chunk to mono PCM.

import { decodeMp3 } from './mp3.js';

type Source = AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
type OnPcm = (mono: Float32Array, sampleRate: number) => void;

const ascii = (bytes: Uint8Array, at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));

/** Decodes an MP3 or WAV stream; the format is sniffed from its first bytes. Resolves with the samples decoded. */
export async function decodeAudio(source: Source, onPcm: OnPcm): Promise<number> {
  const iterator = (Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]()) as
    | AsyncIterator<Uint8Array>
    | Iterator<Uint8Array>;
  let head: Uint8Array = new Uint8Array(0);
  let ended = false;
  while (head.length < 12 && !ended) {
    const next = await iterator.next();
    if (next.done) ended = true;
    else head = concat(head, next.value);
  }
  async function* rest(): AsyncGenerator<Uint8Array> {
    if (head.length > 0) yield head;
    if (ended) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  if (head.length >= 12 && ascii(head, 0) === 'RIFF' && ascii(head, 8) === 'WAVE') return decodeWav(rest(), onPcm);
  return (await decodeMp3(rest(), onPcm)).samples;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

interface WavFormat {
  encoding: 'int' | 'float';
  channels: number;
  sampleRate: number;
  bytesPerSample: number;
}

/** A RIFF WAVE stream: the chunks before `data` are read whole (they are small), the samples stream. */
async function decodeWav(source: AsyncIterable<Uint8Array>, onPcm: OnPcm): Promise<number> {
  let buffer: Uint8Array = new Uint8Array(0);
  let format: WavFormat | null = null;
  let at = 12;
  let dataLeft = -1;
  let total = 0;
  for await (const chunk of source) {
    buffer = concat(buffer, chunk);
    while (dataLeft < 0) {
      if (buffer.length < at + 8) break;
      const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
      const id = ascii(buffer, at);
      const size = view.getUint32(at + 4, true);
      if (id === 'data') {
        if (!format) throw new Error('WAV: data before fmt');
        dataLeft = size === 0 || size === 0xffffffff ? Number.POSITIVE_INFINITY : size;
        buffer = buffer.slice(at + 8);
        at = 0;
        break;
      }
      if (buffer.length < at + 8 + size) break;
      if (id === 'fmt ') format = parseFormat(view, at + 8);
      at += 8 + size + (size % 2);
    }
    if (dataLeft < 0 || !format) continue;
    const frame = format.channels * format.bytesPerSample;
    const usable = Math.min(buffer.length - (buffer.length % frame), dataLeft - (dataLeft % frame));
    if (usable <= 0) continue;
    const mono = toMono(buffer.subarray(0, usable), format);
    dataLeft -= usable;
    buffer = buffer.slice(usable);
    total += mono.length;
    onPcm(mono, format.sampleRate);
  }
  if (!format) throw new Error('WAV: no fmt chunk');
  return total;
}

function parseFormat(view: DataView, at: number): WavFormat {
  let tag = view.getUint16(at, true);
  const channels = view.getUint16(at + 2, true);
  const sampleRate = view.getUint32(at + 4, true);
  const bits = view.getUint16(at + 14, true);
  // WAVE_FORMAT_EXTENSIBLE: the real tag is the sub-format GUID's first two bytes.
  if (tag === 0xfffe) tag = view.getUint16(at + 24, true);
  if (tag === 3 && bits === 32) return { encoding: 'float', channels, sampleRate, bytesPerSample: 4 };
  if (tag === 1 && [8, 16, 24, 32].includes(bits)) return { encoding: 'int', channels, sampleRate, bytesPerSample: bits / 8 };
  throw new Error(`WAV: unsupported format (tag ${tag}, ${bits} bits)`);
}

function toMono(bytes: Uint8Array, format: WavFormat): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { channels, bytesPerSample } = format;
  const frames = bytes.length / (channels * bytesPerSample);
  const mono = new Float32Array(frames);
  const scale = 1 / channels;
  let offset = 0;
  for (let i = 0; i < frames; i += 1) {
    let sum = 0;
    for (let c = 0; c < channels; c += 1) {
      sum += sampleAt(view, offset, format);
      offset += bytesPerSample;
    }
    mono[i] = sum * scale;
  }
  return mono;
}

function sampleAt(view: DataView, at: number, format: WavFormat): number {
  if (format.encoding === 'float') return view.getFloat32(at, true);
  switch (format.bytesPerSample) {
    case 1:
      return (view.getUint8(at) - 128) / 128;
    case 2:
      return view.getInt16(at, true) / 32768;
    case 3: {
      const value = view.getUint8(at) | (view.getUint8(at + 1) << 8) | (view.getInt8(at + 2) << 16);
      return value / 8388608;
    }
    default:
      return view.getInt32(at, true) / 2147483648;
  }
}

/** A mono 16-bit WAV file of the samples (for tests and tools). */
export function encodeWav(samples: Float32Array, sampleRate: number): Uint8Array {
  const out = new Uint8Array(44 + samples.length * 2);
  const view = new DataView(out.buffer);
  const text = (at: number, value: string) => {
    for (let i = 0; i < 4; i += 1) out[at + i] = value.charCodeAt(i);
  };
  text(0, 'RIFF');
  view.setUint32(4, 36 + samples.length * 2, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, 'data');
  view.setUint32(40, samples.length * 2, true);
  for (let i = 0; i < samples.length; i += 1)
    view.setInt16(44 + i * 2, Math.max(-32768, Math.min(32767, Math.round(samples[i] * 32767))), true);
  return out;
}
