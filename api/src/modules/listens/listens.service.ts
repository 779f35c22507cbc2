import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import type { Orm } from '../../db/orm.js';
import { parseInput } from '../../shared/inputs.js';
import { mixPolicy, VISIBLE_MIX_SQL } from '../mixes/mix.policy.js';
import { ListenErrors } from './listen.errors.js';
import { listenMomentInput, mixIdInput } from './listen.inputs.js';
import { listenPolicy } from './listen.policy.js';

/** How often silent listens are looked for, at most (a shorter expiry looks more often). */
const SWEEP_EVERY_MS = 5_000;
/** How far ahead of the server's clock a client's timestamp may be. */
const CLOCK_SKEW_MS = 60_000;
/** Starts this close together are one start sent more than once (a double click, a retry), not a new listen. */
const SAME_START_MS = 5_000;

interface ListenedMix {
  id: string;
  publishedAt: Date;
  durationSeconds: number | null;
}

export interface ListenRecord {
  id: string;
  userId: string | null;
  userName: string | null;
  start: Date;
  end: Date | null;
}

export interface MixStats {
  /** Distinct members who listened. */
  listeners: number;
  /** Listens, members' and anonymous. */
  listens: number;
  /** 'h:mm' over listens that have an end. */
  hours: string;
  saves: number;
  plays: number;
}

/**
 * A mix's live listener count, as the database saw it at `at` (ms since the epoch, the database's clock): a later
 * reading wins, whichever process or path delivers it first.
 */
export interface ListenerCount {
  mixId: string;
  count: number;
  at: number;
}

export type ListenerCountListener = (event: ListenerCount) => void;

export interface ListensOptions {
  /** A listen stops counting this long after its last sign of life (its start or latest heartbeat). */
  expiryMs: number;
}

export function formatHours(totalSeconds: number): string {
  const minutes = Math.floor(totalSeconds / 60);
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
}

/** A client timestamp (see listenMomentInput), not in the future; `now` when absent. */
function parseMoment(value: unknown, field: 'start' | 'end'): Date {
  const date = parseInput(listenMomentInput(field), value) ?? new Date();
  if (date.getTime() > Date.now() + CLOCK_SKEW_MS) throw ListenErrors.inFuture(field);
  return date;
}

interface ListenRow {
  id: string;
  user_id: string | null;
  user_name: string | null;
  started_at: Date;
  ended_at: Date | null;
}

const LISTEN_COLUMNS = 'id, user_id, null as user_name, started_at, ended_at';
/** Counted in "listening now": a member's listen, not ended, alive within the expiry (`?` is the expiry in ms). */
const LIVE_LISTEN_SQL = "ended_at is null and user_id is not null and alive_at > now() - ? * interval '1 millisecond'";

const toRecord = (row: ListenRow): ListenRecord => ({
  id: row.id,
  userId: row.user_id,
  userName: row.user_name,
  start: new Date(row.started_at),
  end: row.ended_at ? new Date(row.ended_at) : null,
});

/**
 * Plays, listens (start, heartbeat, end), the SPEC §9 stats, and live listener counts. "Listening now" is derived from
 * the stored listens alone (open, alive within the expiry), so it is right whichever process served the listen and
 * whether or not it still runs; every process sweeps for listens that went silent and the first to find one tells
 * the subscribers.
 */
export class ListensService {
  private readonly listeners = new Set<ListenerCountListener>();
  private readonly readings = new Map<string, Promise<ListenerCount>>();
  private sweeper: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> = Promise.resolve();

  constructor(
    private readonly orm: Orm,
    private readonly options: ListensOptions,
    private readonly log?: FastifyBaseLogger,
  ) {}

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
    for (const mixId of mixIds) await this.announce(mixId);
    return mixIds;
  }

  private em(): EntityManager {
    return this.orm.em.fork() as EntityManager;
  }

  /** Called whenever a mix's live listener count may have changed (GraphQL subscriptions listen here). */
  onListenerCountChanged(listener: ListenerCountListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async visibleMixId(em: EntityManager, rawMixId: unknown): Promise<string> {
    return (await this.visibleMix(em, rawMixId)).id;
  }

  /** A mix anyone may listen to, with what bounds a listen of it: when it was published and how long it lasts. */
  private async visibleMix(em: EntityManager, rawMixId: unknown): Promise<ListenedMix> {
    const mixId = parseInput(mixIdInput, rawMixId);
    const [row] = mixId
      ? await em.execute<{ id: string; published_at: Date | string; duration_seconds: number | null }[]>(
          `select id, published_at, duration_seconds from mix where id = ? and ${VISIBLE_MIX_SQL}`,
          [mixId],
        )
      : [];
    if (!row) throw ListenErrors.mixNotFound();
    return { id: row.id, publishedAt: new Date(row.published_at), durationSeconds: row.duration_seconds };
  }

  private async announce(mixId: string): Promise<void> {
    if (this.listeners.size === 0) return;
    const count = await this.liveCount(mixId);
    for (const listener of this.listeners) listener(count);
  }

  /** Counts a play. Without a viewer (a shared page) it is also recorded as an anonymous listen that adds no hours. */
  async play(mixId: unknown, viewerId: string | null): Promise<number> {
    const count = await this.em().transactional(async (txEm) => {
      const em = txEm as EntityManager;
      const id = await this.visibleMixId(em, mixId);
      if (!viewerId) {
        await em.execute(
          'insert into listen (id, mix_id, user_id, started_at, ended_at, alive_at) values (gen_random_uuid(), ?, null, now(), now(), now())',
          [id],
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
   * Starts a member's listen, at `start` (now when absent): never before the mix was published, never in the future.
   * One open listen per member per mix: starts of the same listen (a double click, a player's retry, the same start
   * sent eight times at once) answer the one open listen; a later start means the earlier listen was abandoned (its end
   * is unknown), so it is closed with no length rather than guessed. The member's starts of one mix queue on a lock.
   */
  async start(mixId: unknown, viewerId: string, rawStart?: unknown): Promise<ListenRecord> {
    const start = parseMoment(rawStart, 'start');
    const record = await this.em().transactional(async (txEm) => {
      const em = txEm as EntityManager;
      const mix = await this.visibleMix(em, mixId);
      if (start.getTime() < mix.publishedAt.getTime()) throw ListenErrors.startBeforePublishing();
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
      const [row] = await em.execute<ListenRow[]>(
        `insert into listen (id, mix_id, user_id, started_at, alive_at) values (gen_random_uuid(), ?, ?, ?, now())
         returning ${LISTEN_COLUMNS}`,
        [mix.id, viewerId, start],
      );
      return { mixId: mix.id, record: toRecord(row), changed: !open?.live };
    });
    if (record.changed) await this.announce(record.mixId);
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
      const mix = await this.visibleMix(em, mixId);
      const [open] = await em.execute<(ListenRow & { live: boolean })[]>(
        `select ${LISTEN_COLUMNS}, ${LIVE_LISTEN_SQL} as live from listen
          where mix_id = ? and user_id = ? and ended_at is null for update`,
        [this.options.expiryMs, mix.id, viewerId],
      );
      if (!open) throw ListenErrors.noListenInProgress();
      await em.execute('update listen set alive_at = now(), silence_announced = false where id = ?', [open.id]);
      return { mixId: mix.id, record: toRecord(open), changed: !open.live };
    });
    if (result.changed) await this.announce(result.mixId);
    return result.record;
  }

  /**
   * Ends the member's open listen of the mix at `end` (now when absent), after its start and never in the future. A
   * listen lasts at most the mix's length (a player left running past the end, or a clock that jumped): a later end is
   * clamped to the start plus the mix's duration, so no listen adds more hours than the mix holds. Players send a
   * pause twice: with no open listen, the member's latest listen of the mix, already ended, is answered unchanged.
   */
  async end(mixId: unknown, viewerId: string, rawEnd?: unknown): Promise<ListenRecord> {
    const requestedEnd = parseMoment(rawEnd, 'end');
    const result = await this.em().transactional(async (txEm) => {
      const em = txEm as EntityManager;
      const mix = await this.visibleMix(em, mixId);
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
      if (requestedEnd.getTime() < startedAt) throw ListenErrors.endBeforeStart();
      const longest = mix.durationSeconds === null ? Number.POSITIVE_INFINITY : startedAt + mix.durationSeconds * 1000;
      const end = new Date(Math.min(requestedEnd.getTime(), longest));
      const [row] = await em.execute<ListenRow[]>(`update listen set ended_at = ? where id = ? returning ${LISTEN_COLUMNS}`, [
        end,
        open.id,
      ]);
      return { mixId: mix.id, record: toRecord(row), changed: true };
    });
    if (result.changed) await this.announce(result.mixId);
    return result.record;
  }

  /** SPEC §9: Listeners (distinct members), Listens (count), Hours (h:mm over ended listens), Saves (count). */
  async stats(mixId: unknown): Promise<MixStats> {
    const em = this.em();
    const id = await this.visibleMixId(em, mixId);
    const [row] = await em.execute<{ listeners: string; listens: string; seconds: number | null; saves: string; plays: number }[]>(
      `select (select count(distinct user_id) from listen where mix_id = m.id) as listeners,
              (select count(*) from listen where mix_id = m.id) as listens,
              (select extract(epoch from sum(ended_at - started_at))::float8 from listen where mix_id = m.id and ended_at is not null) as seconds,
              (select count(*) from saved_mix where mix_id = m.id) as saves,
              m.play_count as plays
         from mix m where m.id = ?`,
      [id],
    );
    return {
      listeners: Number(row.listeners),
      listens: Number(row.listens),
      hours: formatHours(row.seconds ?? 0),
      saves: Number(row.saves),
      plays: row.plays,
    };
  }

  /**
   * The listen records (SPEC `listeners`) of a mix the viewer has opened (a draft too), when they may see them (it is
   * theirs); otherwise null.
   */
  async recordsIfOwner(mix: { id: string; ownerId: string }, viewerId: string | null): Promise<ListenRecord[] | null> {
    return mixPolicy.seesAudience(viewerId, mix.ownerId) ? this.recordsOf(this.em(), mix.id) : null;
  }

  /** The listen records (SPEC `listeners`), newest first: for the mix's owner only. */
  async records(mixId: unknown, viewerId: string): Promise<ListenRecord[]> {
    const em = this.em();
    const id = await this.visibleMixId(em, mixId);
    const [owner] = await em.execute<{ owner_id: string }[]>('select owner_id from mix where id = ?', [id]);
    listenPolicy.assertCanSeeRecords(owner.owner_id, viewerId);
    return this.recordsOf(em, id);
  }

  private async recordsOf(em: EntityManager, mixId: string): Promise<ListenRecord[]> {
    const rows = await em.execute<ListenRow[]>(
      `select l.id, l.user_id, u.user_name, l.started_at, l.ended_at
         from listen l left join app_user u on u.id = l.user_id
        where l.mix_id = ? order by l.started_at desc limit 1000`,
      [mixId],
    );
    return rows.map(toRecord);
  }

  /** Members listening to a mix right now (open listens alive within the expiry), and when the database counted them. */
  async liveCount(mixId: string): Promise<ListenerCount> {
    const [row] = await this.em().execute<{ count: number; at: number }[]>(
      `select count(*)::int as count, (extract(epoch from statement_timestamp()) * 1000)::float8 as at
         from listen where mix_id = ? and ${LIVE_LISTEN_SQL}`,
      [mixId, this.options.expiryMs],
    );
    return { mixId, count: row.count, at: row.at };
  }

  /**
   * A mix's count for watchers who just arrived: those arriving together share one reading (a thousand sockets
   * reconnecting after a restart cost one query). Never for announcing a change: a reading begun before the change
   * committed would miss it; a watcher hears that change anyway, stamped later than the shared reading.
   */
  currentCount(mixId: string): Promise<ListenerCount> {
    let reading = this.readings.get(mixId);
    if (!reading) {
      reading = this.liveCount(mixId).finally(() => this.readings.delete(mixId));
      this.readings.set(mixId, reading);
    }
    return reading;
  }

  /** The id of a mix anyone may listen to, and so watch the count of (an unknown or hidden mix is a 404). */
  listenableMixId(rawMixId: unknown): Promise<string> {
    return this.visibleMixId(this.em(), rawMixId);
  }

  /** Members listening right now to each of these mixes, in one query (a list of mixes costs one query). */
  async liveCounts(mixIds: readonly string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>(mixIds.map((id) => [id, 0]));
    if (mixIds.length === 0) return counts;
    const rows = await this.em().execute<{ mix_id: string; count: number }[]>(
      `select mix_id, count(*)::int as count from listen where mix_id in (?) and ${LIVE_LISTEN_SQL} group by mix_id`,
      [[...mixIds], this.options.expiryMs],
    );
    for (const row of rows) counts.set(row.mix_id, row.count);
    return counts;
  }
}
