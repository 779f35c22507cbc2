import { pipeline, type Readable, Transform, type TransformCallback } from 'node:stream';
import { type IAudioMetadata, parseFromTokenizer } from 'music-metadata';
import { InvalidInputError, PayloadTooLargeError } from '../../shared/errors.js';
import { isWithinSize, MP3_RULE } from '../../shared/rules.js';
import type { StorageDriver } from '../../storage/storage.js';
import { ChunkTokenizer } from './chunk-tokenizer.js';

export interface AudioFacts {
  bytes: number;
  durationSeconds: number;
  /** Bits per second; the average for variable bitrate files. */
  bitrate: number;
}

/**
 * The first bytes of an MP3: an ID3v2 tag, or an MPEG audio frame header (11 sync bits, a known version, Layer III).
 * Anything else is refused before more of it is read.
 */
export function looksLikeMp3Start(head: Buffer): boolean {
  if (head.length >= 3 && head.toString('latin1', 0, 3) === 'ID3') return true;
  if (head.length < 2 || head[0] !== 0xff) return false;
  const versionBits = (head[1] >> 3) & 0b11;
  const layerBits = (head[1] >> 1) & 0b11;
  return (head[1] & 0xe0) === 0xe0 && versionBits !== 0b01 && layerBits === 0b01;
}

// Fewer frames than this (about a quarter of a second) is no mix; more parse errors than one per ten frames is noise
// that happens to contain MPEG sync words, not audio.
const MIN_FRAMES = 10;
const MAX_ERRORS_PER_FRAME = 0.1;

function factsOf(metadata: IAudioMetadata, bytes: number): AudioFacts | null {
  const { container, codec, duration, bitrate, codecProfile, numberOfSamples, sampleRate } = metadata.format;
  if (container !== 'MPEG' || !/Layer 3$/.test(codec ?? '') || !duration || duration <= 0) return null;
  const frames = (numberOfSamples ?? duration * (sampleRate ?? 44_100)) / 1152;
  if (frames < MIN_FRAMES || metadata.quality.warnings.length > frames * MAX_ERRORS_PER_FRAME) return null;
  const average = Math.round((bytes * 8) / duration);
  return { bytes, durationSeconds: duration, bitrate: codecProfile === 'CBR' && bitrate ? Math.round(bitrate) : average };
}

/**
 * Passes an upload through unchanged while checking it: counts bytes against the limit, refuses a wrong start at
 * once, and lets music-metadata read the same chunks (no copy) as they pass, every frame header, to tell duration
 * and bitrate. The parser shares the upload's backpressure, so memory stays about a megabyte whatever the file's size. The stream fails
 * (and so does whatever it is piped into) as soon as the upload is known to be too large or no MP3; it ends only
 * after the parser has accepted the whole file.
 */
export class Mp3Inspector extends Transform {
  bytes = 0;
  facts: AudioFacts | null = null;
  private head = Buffer.alloc(0);
  private readonly tokenizer = new ChunkTokenizer();
  private probing = true;
  private flushing = false;
  private readonly metadata: Promise<IAudioMetadata | null>;

  constructor() {
    super();
    // Once the parser is done (early, for files whose header tells the duration), the rest is simply passed on.
    this.metadata = parseFromTokenizer(this.tokenizer, { duration: true, skipCovers: true })
      .catch(() => null)
      .then((metadata) => {
        this.probing = false;
        this.tokenizer.end();
        const refused = metadata?.format.container !== 'MPEG';
        if (refused && !this.flushing) this.destroy(new InvalidInputError(MP3_RULE.wrongFormat));
        return metadata;
      });
  }

  /** Why the bytes so far cannot be an MP3 within the limit, or null while they still can. */
  private refusal(): Error | null {
    if (!isWithinSize(this.bytes, MP3_RULE.maxBytes)) return new PayloadTooLargeError(MP3_RULE.tooLarge);
    if (this.head.length >= 3 && !looksLikeMp3Start(this.head)) return new InvalidInputError(MP3_RULE.wrongFormat);
    return null;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.head.length < 3) this.head = Buffer.concat([this.head, chunk.subarray(0, 3)]);
    const refusal = this.refusal();
    if (refusal) callback(refusal);
    else if (!this.probing) callback(null, chunk);
    else this.tokenizer.push(chunk).then(() => callback(null, chunk));
  }

  override _flush(callback: TransformCallback): void {
    if (this.head.length < 3) {
      callback(new InvalidInputError(MP3_RULE.wrongFormat));
      return;
    }
    this.flushing = true;
    this.tokenizer.end();
    this.metadata.then((metadata) => {
      this.facts = metadata ? factsOf(metadata, this.bytes) : null;
      callback(this.facts ? null : new InvalidInputError(MP3_RULE.wrongFormat));
    }, callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.tokenizer.end();
    callback(error);
  }
}

/**
 * Streams an MP3 into storage under `key` while it is checked. Resolves with what the file is once stored; on any
 * failure (too large, no MP3, the client gone) nothing is stored and the error says why.
 */
export async function storeCheckedMp3(source: Readable, storage: StorageDriver, key: string): Promise<AudioFacts> {
  const inspector = new Mp3Inspector();
  // Errors surface through `put`, which fails when the inspector does; either side failing tears down both.
  await storage.put(
    key,
    pipeline(source, inspector, () => undefined),
  );
  if (!inspector.facts) throw new InvalidInputError(MP3_RULE.wrongFormat);
  return inspector.facts;
}
