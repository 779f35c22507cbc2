import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { Orm } from '../../db/orm.js';
import { InvalidInputError, PayloadTooLargeError } from '../../shared/errors.js';
import { COVER_RULE, type ImageFileRule, isWithinSize, missingUploadItems } from '../../shared/rules.js';
import { toSquareJpeg } from '../../storage/images.js';
import type { FinishedUpload } from '../../storage/storage.js';
import { FOLDERS, type Folder, newFileName, objectKey, type StorageDriver } from '../../storage/storage.js';
import { type FileAccess, type IMix, type MixesService, mixPolicy, OWNER_SUSPENDED_SQL } from '../mixes/index.js';
import type { RecognitionJobs } from '../recognition/index.js';
import { type AudioFacts, storeCheckedMp3 } from './audio.js';
import type { MixFileCache } from './mix-file-cache.js';
import type { ResumableUploads } from './resumable-uploads.js';
import type { UploadStaging } from './upload-staging.js';
import type { WaveformService } from './waveform.service.js';

/** One item of the create-mix form, in the order it arrives. */
export type UploadPart =
  | { type: 'file'; field: string; fileName: string; stream: Readable }
  | { type: 'field'; field: string; value: string };

/** Reads a stream whole, refusing it as soon as it is larger than the rule allows. */
async function readCapped(stream: Readable, rule: Pick<ImageFileRule, 'maxBytes' | 'tooLarge'>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (!isWithinSize(size, rule.maxBytes)) {
      stream.destroy();
      throw new PayloadTooLargeError(rule.tooLarge);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** How often drafts nobody touched for DRAFT_TTL_DAYS are looked for. */
const DRAFT_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** A browser sends an empty, nameless file part for a file input left empty. */
async function isEmptyFileInput(part: Extract<UploadPart, { type: 'file' }>): Promise<boolean> {
  if (part.fileName !== '') return false;
  for await (const chunk of part.stream) if ((chunk as Buffer).length > 0) return false;
  return true;
}

/**
 * Media: mix uploads (checked while they stream into storage, crash-safe through UploadStaging), who may read stored
 * files, and the waveform jobs.
 */
export class MediaService {
  private draftSweeper: NodeJS.Timeout | null = null;

  constructor(
    private readonly orm: Orm,
    private readonly storage: StorageDriver,
    private readonly mixes: MixesService,
    readonly uploads: ResumableUploads,
    readonly waveforms: WaveformService,
    private readonly log: Pick<FastifyBaseLogger, 'error'>,
    private readonly fileCache: MixFileCache,
    private readonly staging: UploadStaging,
    readonly recognitions?: RecognitionJobs,
  ) {}

  /**
   * At start: deletes the files of uploads that died with their process, and gets the waveform jobs going again. A
   * sweep that fails (storage unreachable) must not keep the server down; the hourly one tries again.
   */
  async resumeInterruptedWork(): Promise<void> {
    await this.staging.sweep().catch((error) => this.log.error({ err: error }, 'could not sweep abandoned uploads'));
    await this.sweepStaleDrafts().catch((error) => this.log.error({ err: error }, 'could not remove stale drafts'));
    this.draftSweeper ??= setInterval(
      () => void this.sweepStaleDrafts().catch((error) => this.log.error({ err: error }, 'could not remove stale drafts')),
      DRAFT_SWEEP_INTERVAL_MS,
    ).unref();
    await this.waveforms.resumePending();
    await this.recognitions?.resumePending().catch((error) => this.log.error({ err: error }, 'could not resume recognition jobs'));
  }

  /**
   * Creates a draft mix from the upload form: cover, title, MP3 (a file, or the id of a finished resumable upload)
   * and genre. Each file is checked while it streams into storage; every missing item is named in one 400 in the
   * documented order. Whatever fails (a check, the client going away, the draft itself), the files stored so far are
   * deleted and no draft exists; should the process die instead, the next sweep deletes them (see UploadStaging).
   */
  async createMixFromUpload(ownerId: string, parts: AsyncIterable<UploadPart>, isClientGone: () => boolean = () => false): Promise<IMix> {
    // A member at the drafts limit hears so before sending 300 MB (the draft's transaction checks again, under a lock).
    await this.mixes.assertRoomForDraft(ownerId);
    const stored: string[] = [];
    let cover: string | null = null;
    let audio: { fileName: string; facts: AudioFacts } | null = null;
    let resumableId: string | null = null;
    let claimed: FinishedUpload | null = null;
    const fields: Record<string, string> = {};
    try {
      for await (const part of parts) {
        if (part.type === 'field') {
          if (part.field === 'mp3') resumableId = part.value;
          else fields[part.field] = part.value;
          continue;
        }
        if (part.field !== 'cover' && part.field !== 'mp3') {
          part.stream.resume();
          throw new InvalidInputError(`Unexpected file field ${part.field}`);
        }
        if (part.field === 'cover' ? cover !== null : audio !== null) {
          part.stream.resume();
          throw new InvalidInputError(`Send one ${part.field} file`);
        }
        if (part.field === 'cover') {
          if (await isEmptyFileInput(part)) continue;
          cover = await this.storeCover(part.stream, stored);
        } else {
          audio = await this.storeAudio(part.stream, stored);
        }
      }
      if (!audio && resumableId) {
        claimed = await this.uploads.claim(resumableId, ownerId);
        audio = await this.storeResumable(claimed, stored);
      }
      const title = (fields.title ?? '').trim();
      const genre = (fields.genre ?? '').trim();
      const missing = missingUploadItems({ cover: cover !== null, title: title !== '', mp3: audio !== null, genre: genre !== '' });
      // Nothing is missing once cover and audio are there; the second test only tells TypeScript so.
      if (missing !== null || !cover || !audio) throw new InvalidInputError(missing ?? 'Missing: the upload');
      if (isClientGone()) throw new InvalidInputError('Upload cancelled');
      const { fileName, facts } = audio;
      const mix = await this.staging.commit(stored, async (em) => {
        const draft = await this.mixes.createDraft(
          {
            ownerId,
            title,
            genre,
            cover,
            mp3: fileName,
            audioBytes: facts.bytes,
            durationSeconds: facts.durationSeconds,
            bitrate: facts.bitrate,
          },
          em,
        );
        // Recorded with the draft: should the process die before queueing it, the next start finds it pending.
        await this.recognitions?.recordPending(draft.id, em);
        return draft;
      });
      await claimed?.remove();
      await this.waveforms.enqueue(mix.id).catch((error) => this.log.error({ err: error, mixId: mix.id }, 'could not queue the waveform'));
      await this.recognitions
        ?.enqueue(mix.id)
        .catch((error) => this.log.error({ err: error, mixId: mix.id }, 'could not queue recognition'));
      return mix;
    } catch (error) {
      await this.staging.discard(stored).catch((cleanup) => this.log.error({ err: cleanup }, 'could not discard a failed upload'));
      claimed?.release();
      throw error;
    }
  }

  private async storeCover(stream: Readable, stored: string[]): Promise<string> {
    const image = await toSquareJpeg(await readCapped(stream, COVER_RULE), COVER_RULE);
    const fileName = newFileName('jpg');
    const key = objectKey(FOLDERS.mixImages, fileName);
    stored.push(key);
    await this.staging.record(key);
    await this.storage.put(key, image);
    return fileName;
  }

  private async storeAudio(stream: Readable, stored: string[]): Promise<{ fileName: string; facts: AudioFacts }> {
    const fileName = newFileName('mp3');
    const key = objectKey(FOLDERS.mixAudio, fileName);
    stored.push(key);
    await this.staging.record(key);
    return { fileName, facts: await storeCheckedMp3(stream, this.storage, key) };
  }

  /** The finished tus upload's bytes, checked like a form file, become the stored object; a refused file's upload is removed. */
  private async storeResumable(upload: FinishedUpload, stored: string[]): Promise<{ fileName: string; facts: AudioFacts }> {
    try {
      return await this.storeAudio(upload.stream(), stored);
    } catch (error) {
      if (error instanceof InvalidInputError || error instanceof PayloadTooLargeError) await upload.remove();
      throw error;
    }
  }

  /**
   * `fileAccess` when it is known without waiting (the mix's facts remembered, the viewer not needed): a listener's
   * every range but the first. Undefined otherwise.
   */
  knownFileAccess(folder: Folder, fileName: string): FileAccess | undefined {
    if (folder === FOLDERS.profileImages || folder === FOLDERS.trackCovers) return 'public';
    const mix = this.fileCache.peek(fileName);
    return mix === undefined ? undefined : mixPolicy.fileAccessWithoutViewer(mix);
  }

  /** Whether a stored file may be served. Profile images and track covers are public; a mix's files follow the mix's policy. */
  async fileAccess(folder: Folder, fileName: string, viewerId: () => Promise<string | null>): Promise<FileAccess> {
    if (folder === FOLDERS.profileImages || folder === FOLDERS.trackCovers) return 'public';
    const column = folder === FOLDERS.mixAudio ? 'mp3' : 'cover';
    const mix = await this.fileCache.get(fileName, async () => {
      const [row] = await this.orm.em
        .fork()
        .getConnection()
        .execute<
          {
            status: IMix['status'];
            deactivated: boolean;
            owner_id: string;
            expires_at: Date | string | null;
            held: boolean;
            owner_suspended: boolean;
            owner_suspended_until: Date | string | null;
          }[]
        >(
          `select status, deactivated_at is not null as deactivated, owner_id, expires_at, moderation_state is not null as held,
             ${OWNER_SUSPENDED_SQL} as owner_suspended, nullif(owner_suspended_until, 'infinity') as owner_suspended_until
             from mix where ${column} = ?`,
          [fileName],
        );
      return row
        ? {
            status: row.status,
            deactivated: row.deactivated,
            ownerId: row.owner_id,
            expiresAt: row.expires_at === null ? null : new Date(row.expires_at),
            held: row.held,
            ownerSuspended: row.owner_suspended,
            ownerSuspendedUntil: row.owner_suspended_until === null ? null : new Date(row.owner_suspended_until),
          }
        : null;
    });
    return mixPolicy.fileAccess(mix, viewerId);
  }

  /** Removes drafts untouched for DRAFT_TTL_DAYS, then their files; answers how many went. */
  async sweepStaleDrafts(now = new Date()): Promise<number> {
    let removed = 0;
    for (;;) {
      const drafts = await this.mixes.removeStaleDrafts(now);
      for (const draft of drafts) {
        for (const key of [objectKey(FOLDERS.mixAudio, draft.mp3), objectKey(FOLDERS.mixImages, draft.cover)])
          await this.storage.delete(key).catch((error) => this.log.error({ err: error, key }, 'could not delete a stale draft’s file'));
      }
      removed += drafts.length;
      if (drafts.length === 0) return removed;
    }
  }

  async close(): Promise<void> {
    if (this.draftSweeper) clearInterval(this.draftSweeper);
    this.uploads.close();
    await this.staging.close();
    await this.fileCache.close();
    await this.waveforms.close();
    await this.recognitions?.close();
  }
}
