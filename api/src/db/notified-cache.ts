import pg from 'pg';

const RECONNECT_MS = 1000;

export interface NotifiedCacheOptions<Value> {
  /** The channel a table's trigger notifies with the changed keys, separated by spaces. */
  channel: string;
  ttlMs?: number;
  maxEntries?: number;
  /** When a value stops being true on its own (a mix's expiry, say); none means only the TTL. */
  expiresAt?(value: Value): Date | null | undefined;
}

/**
 * What changed: the keys a notification (or this process) named, or `'any'` when listening has just begun or resumed,
 * since changes made while nobody listened were never heard.
 */
export type CacheChange = readonly string[] | 'any';

/**
 * Values read from the database, remembered per key and correct at once on every instance: a table's trigger sends
 * the changed keys over LISTEN/NOTIFY and their entries go. Until the listening connection is up (and whenever it
 * drops) nothing is cached, so nothing can go stale. Only found values are kept: a miss always asks again.
 */
export class NotifiedCache<Value> {
  private readonly entries = new Map<string, { value: Value; until: number }>();
  /** Bumped by every notification: a read that started before one must not be cached. */
  private generation = 0;
  private listening = false;
  private client: pg.Client | null = null;
  private starting: Promise<void> | null = null;
  private reconnect: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly listeners = new Set<(change: CacheChange) => void>();

  constructor(
    private readonly connectionString: string,
    private readonly log: { warn(object: object, message: string): void },
    private readonly options: NotifiedCacheOptions<Value>,
  ) {
    this.ttlMs = options.ttlMs ?? 60_000;
    this.maxEntries = options.maxEntries ?? 10_000;
  }

  /** The remembered value, without waiting; undefined when it would have to be read. */
  peek(key: string): Value | undefined {
    const hit = this.entries.get(key);
    return hit && hit.until > Date.now() ? hit.value : undefined;
  }

  async get(key: string, load: () => Promise<Value | null>): Promise<Value | null> {
    const hit = this.peek(key);
    if (hit !== undefined) return hit;
    if (!this.listening) this.restart();
    const generation = this.generation;
    const value = await load();
    if (value !== null && this.listening && generation === this.generation) {
      const until = Math.min(Date.now() + this.ttlMs, this.options.expiresAt?.(value)?.getTime() ?? Number.POSITIVE_INFINITY);
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(key, { value, until });
    }
    return value;
  }

  /**
   * Drops keys this process has just changed, without waiting for their notification to come back, and tells the
   * listeners at once (the notification tells them again, and every other instance).
   */
  forget(keys: readonly string[]): void {
    if (keys.length === 0) return;
    this.generation += 1;
    for (const key of keys) this.entries.delete(key);
    this.tell(keys);
  }

  /** Hears every change: the keys each notification names, and `'any'` when listening (re)starts. */
  onChange(listener: (change: CacheChange) => void): () => void {
    this.listeners.add(listener);
    if (!this.listening) this.restart();
    return () => this.listeners.delete(listener);
  }

  private tell(change: CacheChange): void {
    for (const listener of this.listeners) listener(change);
  }

  private forgetAll(): void {
    this.generation += 1;
    this.entries.clear();
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString, application_name: `mixcrate-cache-${this.options.channel}` });
    const lost = (error?: Error) => {
      if (this.client !== client) return;
      this.listening = false;
      this.client = null;
      this.forgetAll();
      client.end().catch(() => undefined);
      if (error) this.log.warn({ err: error, channel: this.options.channel }, 'a cache lost its notifications; caching paused');
      if (!this.closed) this.reconnect = setTimeout(() => this.restart(), RECONNECT_MS).unref();
    };
    client.on('notification', (message) => {
      this.generation += 1;
      const keys = (message.payload ?? '').split(' ');
      for (const key of keys) this.entries.delete(key);
      this.tell(keys);
    });
    client.on('error', lost);
    client.on('end', () => lost());
    this.client = client;
    try {
      await client.connect();
      await client.query(`listen ${this.options.channel}`);
      if (this.client === client) {
        this.listening = true;
        this.tell('any');
      }
    } catch (error) {
      lost(error as Error);
    } finally {
      this.starting = null;
    }
  }

  private restart(): void {
    this.starting ??= this.listen();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    if (this.reconnect) clearTimeout(this.reconnect);
    await this.starting;
    const client = this.client;
    this.client = null;
    this.listening = false;
    this.forgetAll();
    await client?.end().catch(() => undefined);
  }
}
