// The recognition engine's public face: what the upload job, the catalogue ingestion and the CLI call.
//
// Storage: a track's fingerprints are rows (hash int4, track int4, data int4) - `fingerprintRows` - in a table with
// an index on hash; `IndexBuilder.addRow` turns rows read back into an in-memory index (or `add` straight from
// fingerprints). Recognition reads a mix as a stream and reports progress as it goes.

import { type Fingerprints, ReferenceFingerprinter } from './fingerprint.js';
import type { FingerprintIndex } from './fingerprint-index.js';
import { type RawDetection, RecognitionSession } from './matcher.js';
import type { MatcherSettings } from './matcher-settings.js';
import { decodeMp3 } from './mp3.js';

export { type Fingerprints, fingerprintReference, HASH_SPACE, ReferenceFingerprinter } from './fingerprint.js';
export { type FingerprintIndex, IndexBuilder, MemoryIndex } from './fingerprint-index.js';
export { type RawDetection, type RecognitionProgress, RecognitionSession } from './matcher.js';
export { DEFAULT_MATCHER_SETTINGS } from './matcher-settings.js';
export { decodeMp3, encodeMp3 } from './mp3.js';
export { FRAME_SECONDS } from './peaks.js';

/** What the catalogue knows of a track number in the index. */
export interface CatalogueTrack {
  trackId: string;
  externalId: string;
  title: string;
}

/** One track found in a mix: seconds in the mix, best guess only. */
export interface Detection extends CatalogueTrack {
  start: number;
  end: number;
  confidence: number;
  /** The speed it was played at (1.1: 10% faster) and the pitch shift heard, in semitones (a turntable's, a key shift, or both). */
  speed: number;
  pitchShift: number;
}

/**
 * A reference track's fingerprints as table rows for PostgreSQL (hash int4, track int4, data int4): `track` is the
 * catalogue track's integer key in the index, `data` the packed entry as a signed 32-bit integer (read it back as is:
 * `IndexBuilder.addRow` takes it signed or unsigned).
 */
export function* fingerprintRows(
  track: number,
  fingerprints: Pick<Fingerprints, 'hashes' | 'data'>,
): Generator<{ hash: number; track: number; data: number }> {
  for (let i = 0; i < fingerprints.hashes.length; i += 1)
    yield { hash: fingerprints.hashes[i] as number, track, data: (fingerprints.data[i] as number) | 0 };
}

/** A reference track's fingerprints from its MP3, decoded as a stream. */
export async function fingerprintMp3(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<Fingerprints> {
  let fingerprinter: ReferenceFingerprinter | null = null;
  await decodeMp3(source, (mono, sampleRate) => {
    fingerprinter ??= new ReferenceFingerprinter(sampleRate);
    fingerprinter.push(mono);
  });
  if (!fingerprinter) throw new Error('No MPEG audio could be decoded');
  return (fingerprinter as ReferenceFingerprinter).finish();
}

export interface RecognizeOptions {
  /** The mix's length if known (from its metadata), so progress can say how far along it is. */
  durationSeconds?: number;
  /** Called every few seconds of audio. */
  onProgress?: (progress: { seconds: number; fraction: number | null; detections: number }) => void;
  settings?: Partial<MatcherSettings>;
}

/** Names raw detections from the catalogue (tracks it does not know are dropped). */
export function nameDetections(raw: RawDetection[], catalogue: (track: number) => CatalogueTrack | undefined): Detection[] {
  const named: Detection[] = [];
  for (const detection of raw) {
    const track = catalogue(detection.track);
    if (!track) continue;
    named.push({
      trackId: track.trackId,
      externalId: track.externalId,
      title: track.title,
      start: Math.round(detection.start * 10) / 10,
      end: Math.round(detection.end * 10) / 10,
      confidence: Math.round(detection.confidence * 1000) / 1000,
      speed: Math.round(detection.speed * 10_000) / 10_000,
      // `|| 0`: no -0 (JSON writes it as 0).
      pitchShift: Math.round(detection.pitchShift * 100) / 100 || 0,
    });
  }
  return named;
}

/** Finds the catalogue tracks playing in an MP3 mix, read as a stream: detections in time order. */
export async function recognizeMp3(
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  index: FingerprintIndex,
  options: RecognizeOptions = {},
): Promise<RawDetection[]> {
  let session: RecognitionSession | null = null;
  await decodeMp3(source, (mono, sampleRate) => {
    session ??= new RecognitionSession(index, sampleRate, {
      settings: options.settings,
      onProgress: (progress) =>
        options.onProgress?.({
          ...progress,
          fraction: options.durationSeconds ? Math.min(1, progress.seconds / options.durationSeconds) : null,
        }),
    });
    session.push(mono);
  });
  if (!session) throw new Error('No MPEG audio could be decoded');
  return (session as RecognitionSession).finish();
}
