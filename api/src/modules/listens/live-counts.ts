import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm.js';
import { listenableMix } from './listen.views.js';

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

/** Counted in "listening now": a member's listen, not ended, alive within the expiry (`?` is the expiry in ms). */
export const LIVE_LISTEN_SQL = "ended_at is null and user_id is not null and alive_at > now() - ? * interval '1 millisecond'";

/**
 * "Listening now", derived from the stored listens alone (open, alive within the expiry), so it is right whichever
 * process served the listen and whether or not it still runs; and the watchers told when a mix's count may have changed.
 */
export class LiveCounts {
  private readonly listeners = new Set<ListenerCountListener>();
  private readonly readings = new Map<string, Promise<ListenerCount>>();

  constructor(
    private readonly orm: Orm,
    private readonly expiryMs: number,
  ) {}

  private em(): EntityManager {
    return this.orm.em.fork() as EntityManager;
  }

  /** Called whenever a mix's live listener count may have changed (GraphQL subscriptions listen here). */
  onChange(listener: ListenerCountListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells the watchers the mix's count as it is now (after the change that may have moved it committed). */
  async announce(mixId: string): Promise<void> {
    if (this.listeners.size === 0) return;
    const count = await this.read(mixId);
    for (const listener of this.listeners) listener(count);
  }

  /** Members listening to a mix right now (open listens alive within the expiry), and when the database counted them. */
  async read(mixId: string): Promise<ListenerCount> {
    const [row] = await this.em().execute<{ count: number; at: number }[]>(
      `select count(*)::int as count, (extract(epoch from statement_timestamp()) * 1000)::float8 as at
         from listen where mix_id = ? and ${LIVE_LISTEN_SQL}`,
      [mixId, this.expiryMs],
    );
    return { mixId, count: row.count, at: row.at };
  }

  /**
   * A mix's count for watchers who just arrived: those arriving together share one reading (a thousand sockets
   * reconnecting after a restart cost one query). Never for announcing a change: a reading begun before the change
   * committed would miss it; a watcher hears that change anyway, stamped later than the shared reading.
   */
  current(mixId: string): Promise<ListenerCount> {
    let reading = this.readings.get(mixId);
    if (!reading) {
      reading = this.read(mixId).finally(() => this.readings.delete(mixId));
      this.readings.set(mixId, reading);
    }
    return reading;
  }

  /** The id of a mix anyone may listen to, and so watch the count of (an unknown or hidden mix is a 404). */
  async listenableMixId(rawMixId: unknown): Promise<string> {
    return (await listenableMix(this.em(), rawMixId)).id;
  }

  /** Members listening right now to each of these mixes, in one query (a list of mixes costs one query). */
  async ofMixes(mixIds: readonly string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>(mixIds.map((id) => [id, 0]));
    if (mixIds.length === 0) return counts;
    const rows = await this.em().execute<{ mix_id: string; count: number }[]>(
      `select mix_id, count(*)::int as count from listen where mix_id in (?) and ${LIVE_LISTEN_SQL} group by mix_id`,
      [[...mixIds], this.expiryMs],
    );
    for (const row of rows) counts.set(row.mix_id, row.count);
    return counts;
  }
}
