import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { AdvisoryLocks } from '../../db/advisory-locks.js';
import { rerunIfAbandoned, runHoldingMixLock, startMixJobQueue } from '../../db/mix-job-queue.js';
import type { Orm } from '../../db/orm.js';
import { parseInput } from '../../shared/inputs.js';
import type { Viewer } from '../../shared/viewer.js';
import { FOLDERS, objectKey, type StorageDriver } from '../../storage/storage.js';
import { mixIdInput, mixPolicy } from '../mixes/index.js';
import { RecognitionErrors } from './recognition.errors.js';
import type { Detection } from './recognition.js';
import type { RecognitionService } from './recognition.service.js';

export const RECOGNITION_QUEUE = 'mix-recognition';
export const RECOGNITION_DEAD_LETTER_QUEUE = 'mix-recognition-failed';
export const RECOGNITION_STATES = ['pending', 'running', 'done', 'failed'] as const;
export type RecognitionState = (typeof RECOGNITION_STATES)[number];
// A two-hour mix is scanned in minutes; anything past this is stuck and gets retried.
const JOB_EXPIRY_SECONDS = 60 * 60;
/** Progress is stored (and published) at most this often, or when a track is found. */
const PROGRESS_STEP = 0.01;

const recognisingLock = (mixId: string) => `recognition:${mixId}`;

export interface RecognisedTrack {
  trackId: string;
  externalId: string;
  title: string;
  start: number;
  end: number;
  /** Null while the job runs (provisional finds). */
  confidence: number | null;
}

/** What the owner of a mix sees of its recognition, live (events) or asked for (`forOwner`). */
export interface RecognitionView {
  mixId: string;
  state: RecognitionState;
  /** Share of the audio scanned (0 to 1). */
  fraction: number;
  tracks: RecognisedTrack[];
}

export type RecognitionListener = (event: RecognitionView) => void;

export interface RecognitionJobOptions {
  connectionString: string;
  retryLimit: number;
  retryDelaySeconds: number;
  /** Mixes queued at most at a time for recognition again when newer references arrive. */
  refreshLimit: number;
}

/**
 * Recognition of a new mix: after an upload, a durable pg-boss job streams the stored MP3 through the engine against
 * the catalogue's fingerprints (RecognitionService's cached index), storing its progress on `recognition_job` and what
 * it found in `recognition_result`, and telling listeners (the PubSub, so graphql-ws subscribers on every instance) as
 * it goes. Publishing never waits for it. Retries, the dead letter and resuming after a crash work as the waveform
 * job's do (see WaveformService).
 */
export class RecognitionJobs {
  private boss: Promise<PgBoss> | null = null;
  private workerId: string | null = null;
  private readonly listeners = new Set<RecognitionListener>();
  private refreshing: Promise<void> | null = null;
  private refreshAgain = false;
  private closed = false;

  constructor(
    private readonly orm: Orm,
    private readonly storage: StorageDriver,
    private readonly recognition: RecognitionService,
    private readonly options: RecognitionJobOptions,
    private readonly log: Pick<FastifyBaseLogger, 'error' | 'warn'>,
    private readonly locks: AdvisoryLocks,
  ) {
    recognition.onReferencesChanged(() => void this.refreshSoon());
  }

  /** Called on every progress step, find and end of a job (GraphQL subscriptions listen through the PubSub). */
  onProgress(listener: RecognitionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: RecognitionView) {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.log.error({ err: error }, 'recognition listener failed');
      }
    }
  }

  private connection() {
    return this.orm.em.fork().getConnection();
  }

  private queue(): Promise<PgBoss> {
    this.boss ??= this.startQueue().catch((error) => {
      this.boss = null;
      throw error;
    });
    return this.boss;
  }

  private async startQueue(): Promise<PgBoss> {
    const { boss, workerId } = await startMixJobQueue(
      {
        connectionString: this.options.connectionString,
        maxConnections: 2,
        applicationName: 'mixcrate-recognition',
        queue: RECOGNITION_QUEUE,
        deadLetterQueue: RECOGNITION_DEAD_LETTER_QUEUE,
        retryLimit: this.options.retryLimit,
        retryDelaySeconds: this.options.retryDelaySeconds,
        expireInSeconds: JOB_EXPIRY_SECONDS,
      },
      { run: (mixId) => this.recognise(mixId), failed: (mixId) => this.markFailed(mixId) },
      this.log,
    );
    this.workerId = workerId;
    return boss;
  }

  /** Records a new mix's recognition as pending (in the caller's transaction, with the mix): `resumePending` finds it. */
  async recordPending(mixId: string, em: Pick<EntityManager, 'execute'>): Promise<void> {
    await em.execute(
      `insert into recognition_job (mix_id, state, fraction, updated_at) values (?, 'pending', 0, now()) on conflict do nothing`,
      [mixId],
    );
  }

  /** Queues the recognition of a new mix; one job per mix (its id is the job's id), so asking twice is harmless. */
  async enqueue(mixId: string): Promise<void> {
    await this.connection().execute(
      `insert into recognition_job (mix_id, state, fraction, updated_at) values (?, 'pending', 0, now()) on conflict do nothing`,
      [mixId],
    );
    const boss = await this.queue();
    await boss.send(RECOGNITION_QUEUE, { mixId }, { id: mixId });
    if (this.workerId) boss.notifyWorker(this.workerId);
  }

  /** At boot: gets the jobs going again that were pending or running when the last process stopped. */
  async resumePending(): Promise<void> {
    const rows = await this.connection().execute<{ mix_id: string }[]>(
      `select j.mix_id from recognition_job j join mix m on m.id = j.mix_id
        where j.state in ('pending', 'running') and m.deactivated_at is null`,
    );
    if (rows.length > 0) {
      const boss = await this.queue();
      for (const { mix_id: mixId } of rows) await this.requeue(boss, mixId);
    }
    await this.refreshSoon();
  }

  /** Queues a pending mix unless pg-boss has its job waiting or running already (an abandoned one runs again). */
  private async requeue(boss: PgBoss, mixId: string): Promise<void> {
    const job = await boss.getJobById<{ mixId: string }>(RECOGNITION_QUEUE, mixId);
    if (job?.state === 'active')
      return rerunIfAbandoned({ boss, name: RECOGNITION_QUEUE, workerId: this.workerId }, this.locks, recognisingLock(mixId), mixId);
    if (job && job.state !== 'completed' && job.state !== 'failed' && job.state !== 'cancelled') return;
    // Finished jobs keep their id in pg-boss for a while: a fresh id lets the mix run again.
    if (job) await boss.deleteJob(RECOGNITION_QUEUE, mixId);
    await this.enqueue(mixId);
  }

  /**
   * Recognises again the mixes whose last recognition predates the newest reference: drafts first (their owners are
   * choosing their tracklists), then the newest mixes. Bounded: with `refreshLimit` mixes pending or running it waits,
   * and each finished job tops the queue up again. A mix is never queued twice (only finished ones are taken, moved to
   * pending in one statement that skips rows another process is taking). Calls while one runs are folded into one more.
   */
  refreshSoon(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.refreshing) {
      this.refreshAgain = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      do {
        this.refreshAgain = false;
        await this.refreshStale().catch((error) => this.log.error({ err: error }, 'could not queue stale recognitions'));
      } while (this.refreshAgain && !this.closed);
    })().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /** One round of refreshSoon: the mixes moved to pending and queued, in order. */
  async refreshStale(): Promise<string[]> {
    const rows = await this.connection().execute<{ mix_id: string }[]>(
      `with newest as (select max(indexed_at) as at from recognition_reference),
            busy as (select count(*) as n from recognition_job where state in ('pending', 'running')),
            stale as (
              select j.mix_id from recognition_job j join mix m on m.id = j.mix_id, newest
               where j.state = 'done' and m.deactivated_at is null and newest.at is not null
                 and (j.references_at is null or j.references_at < newest.at)
               order by (m.status = 'draft') desc, m.created_at desc, m.id
               limit greatest(0, ? - (select n from busy))
               for update of j skip locked)
       update recognition_job j set state = 'pending', fraction = 0, updated_at = now()
         from stale where j.mix_id = stale.mix_id
       returning j.mix_id`,
      [this.options.refreshLimit],
    );
    if (rows.length === 0) return [];
    const boss = await this.queue();
    const queued: string[] = [];
    for (const { mix_id: mixId } of rows) {
      await this.requeue(boss, mixId);
      queued.push(mixId);
    }
    return queued;
  }

  /** Recognises the tracks of a mix. Throws (and so fails the job, to be retried) when it cannot. */
  recognise(mixId: string): Promise<void> {
    return runHoldingMixLock(this.locks, recognisingLock(mixId), () => this.recogniseHeld(mixId));
  }

  private async recogniseHeld(mixId: string): Promise<void> {
    const connection = this.connection();
    const [mix] = await connection.execute<{ mp3: string; duration_seconds: number | null }[]>(
      'select mp3, duration_seconds from mix where id = ? and deactivated_at is null',
      [mixId],
    );
    if (!mix) return;
    const key = objectKey(FOLDERS.mixAudio, mix.mp3);
    if (!(await this.storage.stat(key))) throw new Error(`The MP3 of mix ${mixId} is not in storage`);
    await this.setProgress(mixId, 'running', 0);
    this.emit({ mixId, state: 'running', fraction: 0, tracks: [] });
    let detections: Detection[] = [];
    let referencesAt: string | null = null;
    // Without fingerprinted tracks there is nothing to find (and no index worth building).
    if ((await this.recognition.referenceCount()) > 0) {
      // Identify uses this index or a newer one: a newer one only makes the mix look stale, to be recognised again.
      referencesAt = (await this.recognition.loadIndex()).newestAt;
      let stored = 0;
      let foundCount = 0;
      let writing: Promise<unknown> = Promise.resolve();
      detections = await this.recognition.identify(this.storage.get(key), {
        durationSeconds: mix.duration_seconds,
        onProgress: (progress) => {
          const fraction = Math.min(0.999, progress.fraction ?? 0);
          if (fraction - stored < PROGRESS_STEP && progress.found.length === foundCount) return;
          stored = fraction;
          foundCount = progress.found.length;
          writing = writing.then(() => this.setProgress(mixId, 'running', fraction)).catch(() => undefined);
          this.emit({ mixId, state: 'running', fraction, tracks: progress.found.map((found) => ({ ...found, confidence: null })) });
        },
      });
      await writing;
    }
    await this.orm.em.fork().transactional(async (em) => {
      await em.execute('delete from recognition_result where mix_id = ?', [mixId]);
      if (detections.length > 0)
        await em.execute(
          `insert into recognition_result (mix_id, track_id, start, "end", confidence)
           select ?, r."trackId", r.start, r."end", r.confidence
             from jsonb_to_recordset(?::jsonb) as r("trackId" uuid, start float8, "end" float8, confidence float8)`,
          [mixId, JSON.stringify(detections)],
        );
      await em.execute(
        `update recognition_job set state = 'done', fraction = 1, updated_at = now(), references_at = ?::timestamptz where mix_id = ?`,
        [referencesAt, mixId],
      );
    });
    this.emit({ mixId, state: 'done', fraction: 1, tracks: detections });
    void this.refreshSoon();
  }

  private async setProgress(mixId: string, state: RecognitionState, fraction: number): Promise<void> {
    await this.connection().execute(
      `insert into recognition_job (mix_id, state, fraction, updated_at) values (?, ?, ?, now())
       on conflict (mix_id) do update set state = excluded.state, fraction = excluded.fraction, updated_at = now()`,
      [mixId, state, fraction],
    );
  }

  private async markFailed(mixId: string): Promise<void> {
    this.log.warn({ mixId }, 'recognition failed after every retry');
    const rows = await this.connection().execute<{ fraction: number }[]>(
      `update recognition_job set state = 'failed', updated_at = now() where mix_id = ? and state <> 'done' returning fraction`,
      [mixId],
    );
    if (rows[0]) this.emit({ mixId, state: 'failed', fraction: rows[0].fraction, tracks: [] });
  }

  /** Refuses anyone but the mix's owner (UNAUTHENTICATED without a viewer, FORBIDDEN for another member). */
  async assertOwner(viewer: Viewer, rawMixId: unknown): Promise<string> {
    const mixId = parseInput(mixIdInput, rawMixId);
    const [mix] = mixId
      ? await this.connection().execute<{ owner_id: string; deactivated: boolean }[]>(
          'select owner_id, deactivated_at is not null as deactivated from mix where id = ?',
          [mixId],
        )
      : [];
    mixPolicy.assertIsOwner(mix ? { ownerId: mix.owner_id, deactivated: mix.deactivated } : null, viewer.id, RecognitionErrors.notYours);
    return mixId as string;
  }

  /** The catalogue tracks recognised in a mix, in play order: for its owner only (the upload's confirm step). */
  async recognisedTrackIds(viewer: Viewer, rawMixId: unknown): Promise<string[]> {
    const mixId = await this.assertOwner(viewer, rawMixId);
    const rows = await this.connection().execute<{ track_id: string }[]>(
      'select track_id from recognition_result where mix_id = ? order by start, id',
      [mixId],
    );
    return rows.map((row) => row.track_id);
  }

  /** The recognition of a mix as its owner sees it: the job's state and progress, and the tracks found (once done). */
  async forOwner(viewer: Viewer, rawMixId: unknown): Promise<RecognitionView> {
    const mixId = await this.assertOwner(viewer, rawMixId);
    const connection = this.connection();
    const [job] = await connection.execute<{ state: RecognitionState; fraction: number }[]>(
      'select state, fraction from recognition_job where mix_id = ?',
      [mixId],
    );
    const tracks = await connection.execute<
      { track_id: string; external_id: string | null; title: string; start: number; end: number; confidence: number }[]
    >(
      `select r.track_id, t.external_id, t.title, r.start, r."end", r.confidence
         from recognition_result r join track t on t.id = r.track_id where r.mix_id = ? order by r.start, r.id`,
      [mixId],
    );
    return {
      mixId,
      state: job?.state ?? 'pending',
      fraction: job?.fraction ?? 0,
      tracks: tracks.map((row) => ({
        trackId: row.track_id,
        externalId: row.external_id ?? row.track_id,
        title: row.title,
        start: row.start,
        end: row.end,
        confidence: row.confidence,
      })),
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.refreshing;
    const boss = this.boss;
    this.boss = null;
    if (boss) await (await boss.catch(() => null))?.stop({ graceful: true, wait: true, timeout: 5000 });
  }
}
