import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { AdvisoryLocks } from '../../db/advisory-locks.js';
import { rerunIfAbandoned, runHoldingMixLock, startMixJobQueue } from '../../db/mix-job-queue.js';
import type { Orm } from '../../db/orm.js';
import { FOLDERS, objectKey, type StorageDriver } from '../../storage/storage.js';
import type { WAVEFORM_STATES } from '../mixes/index.js';
import { measureWaveform } from './waveform.js';

export const WAVEFORM_QUEUE = 'mix-waveform';
export const WAVEFORM_DEAD_LETTER_QUEUE = 'mix-waveform-failed';
// A two-hour mix decodes in well under a minute here; anything past this is stuck and gets retried.
const JOB_EXPIRY_SECONDS = 30 * 60;

/** The advisory lock a process holds while it measures a mix: PostgreSQL lets go of it when the process dies. */
const measuringLock = (mixId: string) => `waveform:${mixId}`;

export type WaveformState = (typeof WAVEFORM_STATES)[number];

export interface WaveformView {
  state: WaveformState;
  peaks: number[] | null;
  durationSeconds: number | null;
}

export interface WaveformJobOptions {
  connectionString: string;
  retryLimit: number;
  retryDelaySeconds: number;
}

interface WaveformJob {
  mixId: string;
}

/**
 * The seek bar's waveform: after an upload, a durable pg-boss job (in the same PostgreSQL) decodes the MP3 and stores
 * its exact duration and peaks on the mix. A failing job is retried with backoff; when the retries run out, the
 * dead-letter queue marks the mix's waveform as failed. Nothing else waits for it: publishing never does.
 *
 * The queue starts on first use, or at boot when mixes are still waiting for their waveform, so processes that
 * never upload (and most tests) never open its connections. A job whose process died while running it stays active in
 * pg-boss until it expires; at boot, such a job (active, and nobody holds its measuring lock) runs again at once.
 */
export class WaveformService {
  private boss: Promise<PgBoss> | null = null;
  private workerId: string | null = null;

  constructor(
    private readonly orm: Orm,
    private readonly storage: StorageDriver,
    private readonly options: WaveformJobOptions,
    private readonly log: Pick<FastifyBaseLogger, 'error' | 'warn'>,
    private readonly locks: AdvisoryLocks,
  ) {}

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
        maxConnections: 3,
        applicationName: 'mixcrate-jobs',
        queue: WAVEFORM_QUEUE,
        deadLetterQueue: WAVEFORM_DEAD_LETTER_QUEUE,
        retryLimit: this.options.retryLimit,
        retryDelaySeconds: this.options.retryDelaySeconds,
        expireInSeconds: JOB_EXPIRY_SECONDS,
      },
      { run: (mixId) => this.measure(mixId), failed: (mixId) => this.markFailed(mixId) },
      this.log,
    );
    this.workerId = workerId;
    return boss;
  }

  /** Queues the waveform of a new mix; one job per mix (its id is the job's id), so asking twice is harmless. */
  async enqueue(mixId: string): Promise<void> {
    const boss = await this.queue();
    await boss.send(WAVEFORM_QUEUE, { mixId } satisfies WaveformJob, { id: mixId });
    if (this.workerId) boss.notifyWorker(this.workerId);
  }

  /**
   * At boot: starts the queue when mixes still wait for a waveform (a crash between upload and queueing included), and
   * runs again the jobs a dead process left active.
   */
  async resumePending(): Promise<void> {
    const rows = await this.orm.em
      .fork()
      .getConnection()
      .execute<{ id: string }[]>(`select id from mix where waveform_state = 'pending' and deactivated_at is null`);
    if (rows.length === 0) return;
    const boss = await this.queue();
    for (const { id } of rows) {
      const job = await boss.getJobById<WaveformJob>(WAVEFORM_QUEUE, id);
      if (job?.state === 'active')
        await rerunIfAbandoned({ boss, name: WAVEFORM_QUEUE, workerId: this.workerId }, this.locks, measuringLock(id), id);
      else await this.enqueue(id);
    }
  }

  /** Decodes the mix's MP3 and stores its exact duration and peaks. Throws (and so fails the job) when it cannot. */
  measure(mixId: string): Promise<void> {
    return runHoldingMixLock(this.locks, measuringLock(mixId), () => this.measureHeld(mixId));
  }

  private async measureHeld(mixId: string): Promise<void> {
    const connection = this.orm.em.fork().getConnection();
    const [mix] = await connection.execute<{ mp3: string; duration_seconds: number | null }[]>(
      'select mp3, duration_seconds from mix where id = ?',
      [mixId],
    );
    if (!mix) return;
    const key = objectKey(FOLDERS.mixAudio, mix.mp3);
    if (!(await this.storage.stat(key))) throw new Error(`The MP3 of mix ${mixId} is not in storage`);
    const waveform = await measureWaveform(() => this.storage.get(key), mix.duration_seconds);
    await connection.execute(`update mix set peaks = cast(? as jsonb), duration_seconds = ?, waveform_state = 'ready' where id = ?`, [
      JSON.stringify(waveform.peaks),
      waveform.durationSeconds,
      mixId,
    ]);
  }

  private async markFailed(mixId: string): Promise<void> {
    this.log.warn({ mixId }, 'waveform failed after every retry');
    await this.orm.em
      .fork()
      .getConnection()
      .execute(`update mix set waveform_state = 'failed' where id = ? and waveform_state = 'pending'`, [mixId]);
  }

  /** Waveforms of several mixes in one query, in the order asked; unknown ids are null. */
  async forMixes(mixIds: readonly string[]): Promise<(WaveformView | null)[]> {
    if (mixIds.length === 0) return [];
    const rows = await this.orm.em
      .fork()
      .getConnection()
      .execute<{ id: string; waveform_state: WaveformState; peaks: number[] | null; duration_seconds: number | null }[]>(
        'select id, waveform_state, peaks, duration_seconds from mix where id in (?)',
        [mixIds],
      );
    const byId = new Map(rows.map((row) => [row.id, row]));
    return mixIds.map((id) => {
      const row = byId.get(id);
      return row ? { state: row.waveform_state, peaks: row.peaks, durationSeconds: row.duration_seconds } : null;
    });
  }

  async close(): Promise<void> {
    const boss = this.boss;
    this.boss = null;
    if (boss) await (await boss.catch(() => null))?.stop({ graceful: true, wait: true, timeout: 5000 });
  }
}
