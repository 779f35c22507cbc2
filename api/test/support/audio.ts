import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Mp3Encoder } from '@breezystack/lamejs';

export interface SineOptions {
  seconds: number;
  kbps?: number;
  sampleRate?: number;
  channels?: 1 | 2;
  /** Loudness over time, 0 to 1; default a ramp from silence to 0.6 of full scale. */
  envelope?: (position: number) => number;
}

/** An MP3 of a 440 Hz sine, encoded by LAME compiled to JavaScript: a real file, made in the test, a few KB a second. */
export function sineMp3({ seconds, kbps = 128, sampleRate = 44_100, channels = 2, envelope = (at) => at * 0.6 }: SineOptions): Buffer {
  const encoder = new Mp3Encoder(channels, sampleRate, kbps);
  const total = Math.round(seconds * sampleRate);
  const chunks: Uint8Array[] = [];
  const block = 1152 * 8;
  for (let start = 0; start < total; start += block) {
    const length = Math.min(block, total - start);
    const pcm = new Int16Array(length);
    for (let index = 0; index < length; index += 1) {
      const sample = start + index;
      pcm[index] = Math.round(Math.sin((2 * Math.PI * 440 * sample) / sampleRate) * 32767 * envelope(sample / total));
    }
    chunks.push(encoder.encodeBuffer(pcm, channels === 2 ? pcm : undefined));
  }
  chunks.push(encoder.flush());
  return Buffer.concat(chunks.map((chunk) => Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)));
}

/** A minimal PCM WAV: real audio, but not an MP3. */
export function silentWav(seconds: number, sampleRate = 8000): Buffer {
  const data = Buffer.alloc(seconds * sampleRate * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** Every file under a folder, as paths relative to it (empty when the folder does not exist). */
export async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name).slice(folder.length + 1));
}
