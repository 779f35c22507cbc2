import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm.js';
import { DomainError } from '../../shared/errors.js';
import { parseInput } from '../../shared/inputs.js';
import type { Viewer } from '../../shared/viewer.js';
import type { FinishedUpload } from '../../storage/storage.js';
import type { Decision, ModerationService } from '../moderation/index.js';
import type { Role } from '../roles/index.js';
import { type Creator, trackIdInput } from '../tracks/index.js';
import type { Fingerprints } from './fingerprint.js';
import { REFERENCE_MIN_SECONDS, RecognitionErrors } from './recognition.errors.js';
import { uploadIdInput } from './recognition.inputs.js';
import type { RecognitionService } from './recognition.service.js';
import { type ReferenceMatch, type ReferenceTrackFacts, referencePolicy } from './reference.policy.js';

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

/** How a reference request ended: stored (the index has it), or queued for a moderator (it matched another owner's track). */
export type ReferenceOutcome = TrackReferenceView & { queued: boolean };

/** The people who own the music and the moderation queue (the creators, roles and moderation modules; services.ts hands them in). */
export interface ReferenceOwners {
  holdsTrack(userId: string, track: { creators: Creator[]; label: Creator | null }): Promise<boolean>;
  roleOf(userId: string): Promise<Role>;
  moderation: ModerationService;
}

/**
 * Reference audio from the people who own the music (referencePolicy): the audio is fingerprinted on the recognition
 * thread as it streams in and checked against the stored references first. Audio that matches a track the uploader does
 * not hold waits in the moderation queue; the rest is stored in PostgreSQL exactly as the CLI stores it
 * (RecognitionService.storeFingerprints, which also gets older mixes recognised again). Nothing is stored unless the
 * whole file decodes.
 */
export class TrackReferences {
  constructor(
    private readonly orm: Orm,
    private readonly recognition: RecognitionService,
    private readonly uploads: UploadClaims,
    /** The largest file accepted (RECOGNITION_REFERENCE_MAX_BYTES). */
    readonly maxBytes: number,
    private readonly owners: ReferenceOwners,
  ) {
    owners.moderation.register('reference_duplicate', { decide: (em, item, decision) => this.decide(em, item.subjectId, decision) });
  }

  private em(): EntityManager {
    return this.orm.em.fork() as EntityManager;
  }

  private async facts(trackId: string, viewerId: string): Promise<ReferenceTrackFacts | null> {
    const [track] = await this.em().execute<{ creators: Creator[]; label: Creator | null }[]>(
      'select creators, label from track where id = ?',
      [trackId],
    );
    if (!track) return null;
    const creators = Array.isArray(track.creators) ? track.creators : [];
    const [holdsTrack, role] = await Promise.all([
      this.owners.holdsTrack(viewerId, { creators, label: track.label }),
      this.owners.roleOf(viewerId),
    ]);
    return { holdsTrack, role };
  }

  private async assertMayChange(viewerId: string, rawTrackId: unknown): Promise<string> {
    const trackId = parseInput(trackIdInput, rawTrackId);
    referencePolicy.assertMayChange(trackId ? await this.facts(trackId, viewerId) : null);
    return trackId as string;
  }

  /** Fingerprints the audio and makes it the track's reference (replacing any before), or queues it (see needsReview). */
  async add(viewer: Viewer, rawTrackId: unknown, audio: ReferenceAudio): Promise<ReferenceOutcome> {
    const id = await this.assertMayChange(viewer.id, rawTrackId);
    if ('stream' in audio) return this.fingerprintAndStore(viewer.id, id, capped(audio.stream, this.maxBytes));
    const upload: FinishedUpload = await this.uploads.claim(parseInput(uploadIdInput, audio.uploadId), viewer.id);
    try {
      const view = await this.fingerprintAndStore(viewer.id, id, capped(upload.stream(), this.maxBytes));
      await upload.remove();
      return view;
    } catch (error) {
      upload.release();
      throw error;
    }
  }

  /** Takes the track's reference audio out of the index (the same people who may add it). */
  async remove(viewer: Viewer, rawTrackId: unknown): Promise<boolean> {
    const id = await this.assertMayChange(viewer.id, rawTrackId);
    const removed = await this.recognition.removeReference(id);
    if (!removed) throw RecognitionErrors.noReference();
    return true;
  }

  private async fingerprintAndStore(viewerId: string, trackId: string, source: AsyncIterable<Uint8Array>): Promise<ReferenceOutcome> {
    const fingerprints = await this.recognition.fingerprint(source).catch((error: unknown) => {
      // Our refusals and the form parser's (a 4xx with its words) stand; what the decoder says is a bad file.
      if (error instanceof DomainError || (error instanceof Error && 'statusCode' in error)) throw error;
      throw RecognitionErrors.notAudio(error instanceof Error ? error.message : String(error));
    });
    if (fingerprints.seconds < REFERENCE_MIN_SECONDS || fingerprints.hashes.length === 0)
      throw RecognitionErrors.tooShort(fingerprints.seconds);
    const match = await this.matchOf(viewerId, trackId, fingerprints);
    if (referencePolicy.needsReview(match)) {
      await this.queue(viewerId, trackId, match?.trackId ?? null, fingerprints);
      return { trackId, seconds: fingerprints.seconds, fingerprints: fingerprints.hashes.length, queued: true };
    }
    const summary = await this.recognition.storeFingerprints(trackId, fingerprints);
    return { trackId, seconds: summary.seconds, fingerprints: summary.entries, queued: false };
  }

  /** The other track whose stored reference shares the most of these fingerprints, when they make it the same audio. */
  private async matchOf(viewerId: string, trackId: string, fingerprints: Fingerprints): Promise<ReferenceMatch | null> {
    const best = await this.recognition.closestReference(trackId, fingerprints.hashes);
    if (!best || !referencePolicy.isDuplicate(best.hits, fingerprints.hashes.length)) return null;
    const [track] = await this.em().execute<{ creators: Creator[]; label: Creator | null }[]>(
      'select creators, label from track where id = ?',
      [best.trackId],
    );
    const heldByViewer = track
      ? await this.owners.holdsTrack(viewerId, { creators: Array.isArray(track.creators) ? track.creators : [], label: track.label })
      : false;
    return { trackId: best.trackId, heldByViewer };
  }

  private async queue(viewerId: string, trackId: string, matchedTrackId: string | null, fingerprints: Fingerprints): Promise<void> {
    await this.em().transactional(async (txEm) => {
      const em = txEm as EntityManager;
      const [row] = await em.execute<{ id: string; title: string; matched: string | null }[]>(
        `insert into pending_reference (id, track_id, user_id, matched_track_id, seconds, hashes, data, created_at)
         values (gen_random_uuid(), ?, ?, ?, ?, ?::int[], ?::int[], now())
         returning id, (select title from track where id = ?) as title, (select title from track where id = ?) as matched`,
        [
          trackId,
          viewerId,
          matchedTrackId,
          fingerprints.seconds,
          `{${Array.from(fingerprints.hashes).join(',')}}`,
          `{${Array.from(Int32Array.from(fingerprints.data)).join(',')}}`,
          trackId,
          matchedTrackId,
        ],
      );
      await this.owners.moderation.open(em, {
        kind: 'reference_duplicate',
        subjectId: row.id,
        summary: `Reference audio for "${row.title}" (${fingerprints.seconds.toFixed(0)} s) matches the indexed track "${row.matched ?? 'unknown'}", which the uploader does not hold.`,
        raisedBy: viewerId,
      });
    });
  }

  /** A moderator's decision on a queued reference: approved, it becomes the track's reference; either way the hold ends. */
  private async decide(em: EntityManager, pendingId: string, decision: Decision): Promise<(() => Promise<void>) | undefined> {
    const [pending] = await em.execute<{ track_id: string; seconds: number; hashes: number[]; data: number[] }[]>(
      'delete from pending_reference where id::text = ? returning track_id, seconds, hashes, data',
      [pendingId],
    );
    if (!pending) throw RecognitionErrors.pendingGone();
    if (decision !== 'approve') return undefined;
    const fingerprints: Fingerprints = {
      seconds: pending.seconds,
      hashes: Uint32Array.from(pending.hashes),
      data: Uint32Array.from(pending.data, (value) => value >>> 0),
    };
    // Stored after the decision commits: the index write is its own transaction (and tells the recognition jobs).
    return async () => {
      await this.recognition.storeFingerprints(pending.track_id, fingerprints);
    };
  }
}
