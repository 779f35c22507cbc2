import type { Orm } from '../../db/orm.js';
import { DomainError } from '../../shared/errors.js';
import { parseInput } from '../../shared/inputs.js';
import type { Viewer } from '../../shared/viewer.js';
import type { FinishedUpload } from '../../storage/storage.js';
import { trackIdInput } from '../tracks/index.js';
import { REFERENCE_MIN_SECONDS, RecognitionErrors } from './recognition.errors.js';
import { uploadIdInput } from './recognition.inputs.js';
import type { RecognitionService } from './recognition.service.js';
import { type ReferenceTrackFacts, referencePolicy } from './reference.policy.js';

/** Reference audio as a request brings it: a file's bytes as they stream in, or the id of a finished resumable upload. */
export type ReferenceAudio = { stream: AsyncIterable<Uint8Array> } | { uploadId: unknown };

/** What a track's reference now is. */
export interface TrackReferenceView {
  trackId: string;
  /** Seconds of audio fingerprinted. */
  seconds: number;
  /** Fingerprints stored. */
  fingerprints: number;
}

/** Finished resumable uploads, claimed by id for their owner (the media module's; services.ts hands them in). */
export interface UploadClaims {
  claim(uploadId: string, ownerId: string): Promise<FinishedUpload>;
}

/** Refuses a stream past `max` bytes as it flows (the multipart parser's own cap is only a backstop). */
async function* capped(source: AsyncIterable<Uint8Array>, max: number): AsyncGenerator<Uint8Array> {
  let total = 0;
  for await (const chunk of source) {
    total += chunk.length;
    if (total > max) throw RecognitionErrors.tooLarge(max);
    yield chunk;
  }
}

/**
 * Members adding reference audio to tracks they own (referencePolicy): the audio is fingerprinted on the recognition
 * thread as it streams in and stored in PostgreSQL exactly as the CLI stores it (RecognitionService.storeFingerprints,
 * which also gets older mixes recognised again). Nothing is stored unless the whole file decodes.
 */
export class TrackReferences {
  constructor(
    private readonly orm: Orm,
    private readonly recognition: RecognitionService,
    private readonly uploads: UploadClaims,
    /** The largest file accepted (RECOGNITION_REFERENCE_MAX_BYTES). */
    readonly maxBytes: number,
  ) {}

  private async facts(trackId: string, viewerId: string): Promise<ReferenceTrackFacts | null> {
    const [row] = await this.orm.em.fork().execute<{ is_manual: boolean; names_viewer: boolean; owners: string[] }[]>(
      `select t.is_manual,
              (t.creators @> jsonb_build_array(jsonb_build_object('id', ?::text)) or t.label->>'id' = ?) as names_viewer,
              array(select distinct m.owner_id::text from mix_track mt join mix m on m.id = mt.mix_id where mt.track_id = t.id) as owners
         from track t where t.id = ?`,
      [viewerId, viewerId, trackId],
    );
    return row ? { isManual: row.is_manual, namesViewer: row.names_viewer, tracklistOwners: row.owners } : null;
  }

  /** Fingerprints the audio and makes it the track's reference (replacing any before). */
  async add(viewer: Viewer, rawTrackId: unknown, audio: ReferenceAudio): Promise<TrackReferenceView> {
    const trackId = parseInput(trackIdInput, rawTrackId);
    referencePolicy.assertMayAddReference(trackId ? await this.facts(trackId, viewer.id) : null, viewer.id);
    const id = trackId as string;
    if ('stream' in audio) return this.fingerprintAndStore(id, capped(audio.stream, this.maxBytes));
    const upload: FinishedUpload = await this.uploads.claim(parseInput(uploadIdInput, audio.uploadId), viewer.id);
    try {
      const view = await this.fingerprintAndStore(id, capped(upload.stream(), this.maxBytes));
      await upload.remove();
      return view;
    } catch (error) {
      upload.release();
      throw error;
    }
  }

  private async fingerprintAndStore(trackId: string, source: AsyncIterable<Uint8Array>): Promise<TrackReferenceView> {
    const fingerprints = await this.recognition.fingerprint(source).catch((error: unknown) => {
      // Our refusals and the form parser's (a 4xx with its words) stand; what the decoder says is a bad file.
      if (error instanceof DomainError || (error instanceof Error && 'statusCode' in error)) throw error;
      throw RecognitionErrors.notAudio(error instanceof Error ? error.message : String(error));
    });
    if (fingerprints.seconds < REFERENCE_MIN_SECONDS || fingerprints.hashes.length === 0)
      throw RecognitionErrors.tooShort(fingerprints.seconds);
    const summary = await this.recognition.storeFingerprints(trackId, fingerprints);
    return { trackId, seconds: summary.seconds, fingerprints: summary.entries };
  }
}
