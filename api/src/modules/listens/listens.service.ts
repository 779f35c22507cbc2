import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import type { Orm } from '../../db/orm.js';
import { parseInput } from '../../shared/inputs.js';
import { tracklistVersionInForce } from '../mixes/index.js';
import { ListenErrors } from './listen.errors.js';
import { listenMomentInput } from './listen.inputs.js';
import { LISTEN_COLUMNS, type ListenRecord, type ListenRow, listenableMix, toRecord } from './listen.views.js';
import { ListenStats } from './listen-stats.js';
import { LIVE_LISTEN_SQL, LiveCounts } from './live-counts.js';

/** How often silent listens are looked for, at most (a shorter expiry looks more often). */
const SWEEP_EVERY_MS = 5_000;
/** Starts this close together are one start sent more than once (a double click, a retry), not a new listen. */
const SAME_START_MS = 5_000;

export interface ListensOptions {
  /** A listen stops counting this long after its last sign of life (its start or latest heartbeat). */
  expiryMs: number;
}

/**
 * A client's moment (`now` when absent) clamped into [earliest, now]: a device whose clock runs slow or fast still has
 * its listen counted, at the nearest moment the server can believe, and no listen can be made longer than it was.
 */
function clampMoment(requested: Date | undefined, earliest: number): Date {
  return new Date(Math.max(earliest, Math.min((requested ?? new Date()).getTime(), Date.now())));
}

/**
 * Plays and the lifecycle of a listen (start, heartbeat, end), with the sweeper for listens that went silent; every
 * process sweeps and the first to find one tells the watchers. The live counts (`counts`) and the stats (docs/mix-page.md#stats) and
 * listen records (`stats`) are parts of their own.
 */
export class ListensService {
  readonly counts: LiveCounts;
  readonly stats: ListenStats;
  private sweeper: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> = Promise.resolve();

  constructor(
    private readonly orm: Orm,
    private readonly options: ListensOptions,
    private readonly log?: FastifyBaseLogger,
  ) {
    this.counts = new LiveCounts(orm, options.expiryMs);
    this.stats = new ListenStats(orm);
  }

  private em(): EntityManager {
    return this.orm.em.fork() as EntityManager;
  }

  /** Counts a play. Without a viewer (a shared page) it is also recorded as an anonymous listen that adds no hours. */
  async play(mixId: unknown, viewerId: string | null): Promise<number> {
    const count = await this.em().transactional(async (txEm) => {
      const em = txEm as EntityManager;
      const { id } = await listenableMix(em, mixId);
      if (!viewerId) {
        await em.execute(
          `insert into listen (id, mix_id, user_id, tracklist_version_id, started_at, ended_at, alive_at)
           values (gen_random_uuid(), ?, null, ?, now(), now(), now())`,
          [id, await tracklistVersionInForce(em, id)],
        );
      }
      const [row] = await em.execute<{ play_count: number }[]>(
        'update mix set play_count = play_count + 1 where id = ? returning play_count',
        [id],
      );
      return row.play_count;
    });
    return count;
  }

  /**
   * Starts a member's listen, at `start` (now when absent), clamped into [the mix's publishing, now].
   * One open listen per member per mix: starts of the same listen (a double click, a player's retry, the same start
   * sent eight times at once) answer the one open listen; a later start means the earlier listen was abandoned (its end
   * is unknown), so it is closed with no length rather than guessed. The member's starts of one mix queue on a lock.
   */
  async start(mixId: unknown, viewerId: string, rawStart?: unknown): Promise<ListenRecord> {
    const requested = parseInput(listenMomentInput('start'), rawStart);
    const record = await this.em().transactional(async (txEm) => {
      const em = txEm as EntityManager;
      const mix = await listenableMix(em, mixId);
      const start = clampMoment(requested, mix.publishedAt.getTime());
      await em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`listen:${mix.id}:${viewerId}`]);
      const [open] = await em.execute<(ListenRow & { live: boolean })[]>(
        `select ${LISTEN_COLUMNS}, ${LIVE_LISTEN_SQL} as live from listen where mix_id = ? and user_id = ? and ended_at is null`,
        [this.options.expiryMs, mix.id, viewerId],
      );
      if (open && Math.abs(new Date(open.started_at).getTime() - start.getTime()) <= SAME_START_MS) {
        // The same start again is a sign of life too.
        await em.execute('update listen set alive_at = now(), silence_announced = false where id = ?', [open.id]);
        return { mixId: mix.id, record: toRecord(open), changed: !open.live };
      }
      if (open) await em.execute('update listen set ended_at = started_at where id = ?', [open.id]);
      // The listen is settled against the tracklist in force as it starts, whatever the tracklist says later
      // (docs/payments.md#tracklist-versions).
      const [row] = await em.execute<ListenRow[]>(
        `insert into listen (id, mix_id, user_id, tracklist_version_id, started_at, alive_at) values (gen_random_uuid(), ?, ?, ?, ?, now())
         returning ${LISTEN_COLUMNS}`,
        [mix.id, viewerId, await tracklistVersionInForce(em, mix.id), start],
      );
      return { mixId: mix.id, record: toRecord(row), changed: !open?.live };
    });
    if (record.changed) await this.counts.announce(record.mixId);
    return record.record;
  }

  /**
   * A heartbeat from the member's player: the open listen of the mix is alive now. A listen that had gone silent counts
   * again (and its mix's count is announced). No open listen (it ended, or never started) is a 404: the player starts
   * a new one.
   */
  async heartbeat(mixId: unknown, viewerId: string): Promise<ListenRecord> {
    const result = await this.em().transactional(async (txEm) => {
      const em = txEm as EntityManager;
      const mix = await listenableMix(em, mixId);
      const [open] = await em.execute<(ListenRow & { live: boolean })[]>(
        `select ${LISTEN_COLUMNS}, ${LIVE_LISTEN_SQL} as live from listen
          where mix_id = ? and user_id = ? and ended_at is null for update`,
        [this.options.expiryMs, mix.id, viewerId],
      );
      if (!open) throw ListenErrors.noListenInProgress();
      await em.execute('update listen set alive_at = now(), silence_announced = false where id = ?', [open.id]);
      return { mixId: mix.id, record: toRecord(open), changed: !open.live };
    });
    if (result.changed) await this.counts.announce(result.mixId);
    return result.record;
  }

  /**
   * Ends the member's open listen of the mix at `end` (now when absent), clamped into [its start, now]. A
   * listen lasts at most the mix's length (a player left running past the end, or a clock that jumped): a later end is
   * clamped to the start plus the mix's duration, so no listen adds more hours than the mix holds. Players send a
   * pause twice: with no open listen, the member's latest listen of the mix, already ended, is answered unchanged.
   */
  async end(mixId: unknown, viewerId: string, rawEnd?: unknown): Promise<ListenRecord> {
    const requested = parseInput(listenMomentInput('end'), rawEnd);
    const result = await this.em().transactional(async (txEm) => {
      const em = txEm as EntityManager;
      const mix = await listenableMix(em, mixId);
      const [open] = await em.execute<ListenRow[]>(
        `select ${LISTEN_COLUMNS} from listen where mix_id = ? and user_id = ? and ended_at is null for update`,
        [mix.id, viewerId],
      );
      if (!open) {
        const [ended] = await em.execute<ListenRow[]>(
          `select ${LISTEN_COLUMNS} from listen where mix_id = ? and user_id = ? order by started_at desc limit 1`,
          [mix.id, viewerId],
        );
        if (!ended) throw ListenErrors.noListenInProgress();
        return { mixId: mix.id, record: toRecord(ended), changed: false };
      }
      const startedAt = new Date(open.started_at).getTime();
      const requestedEnd = clampMoment(requested, startedAt);
      const longest = mix.durationSeconds === null ? Number.POSITIVE_INFINITY : startedAt + mix.durationSeconds * 1000;
      const end = new Date(Math.min(requestedEnd.getTime(), longest));
      const [row] = await em.execute<ListenRow[]>(`update listen set ended_at = ? where id = ? returning ${LISTEN_COLUMNS}`, [
        end,
        open.id,
      ]);
      return { mixId: mix.id, record: toRecord(row), changed: true };
    });
    if (result.changed) await this.counts.announce(result.mixId);
    return result.record;
  }

  /** Starts looking for listens that went silent, every few seconds (a fraction of the expiry), until close(). */
  startSweeping(): void {
    if (this.sweeper) return;
    const every = Math.min(SWEEP_EVERY_MS, Math.max(50, Math.floor(this.options.expiryMs / 4)));
    this.sweeper = setInterval(() => {
      this.sweeping = this.sweepSilentListens().then(
        () => undefined,
        (error: unknown) => this.log?.warn({ err: error }, 'looking for silent listens failed'),
      );
    }, every);
    this.sweeper.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    await this.sweeping;
  }

  /**
   * Marks the listens that went silent since the last sweep (in any process) and announces their mixes' new counts.
   * The update claims each listen once: two processes sweeping at once announce it once between them.
   */
  async sweepSilentListens(): Promise<string[]> {
    const rows = await this.em().execute<{ mix_id: string }[]>(
      `update listen set silence_announced = true
        where ended_at is null and user_id is not null and not silence_announced
          and alive_at <= now() - ? * interval '1 millisecond'
       returning mix_id`,
      [this.options.expiryMs],
    );
    const mixIds = [...new Set(rows.map((row) => row.mix_id))];
    for (const mixId of mixIds) await this.counts.announce(mixId);
    return mixIds;
  }
}
