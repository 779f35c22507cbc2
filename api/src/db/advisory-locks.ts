import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';

const RELEASE_CHANNEL = 'mixcrate_lock_release';
const RETRY_MS = 50;

export interface HeldLock {
  release(): Promise<void>;
}

/**
 * PostgreSQL session advisory locks, each held on its own connection: every API process (one, or a cluster of them)
 * sees the same locks, and a process that dies lets go of its locks with its connections. A holder may register how
 * to let go early; another process asks for that with a NOTIFY.
 */
export class AdvisoryLocks {
  private readonly pool: pg.Pool;
  private readonly onReleaseRequest = new Map<string, () => unknown>();
  /** Connections holding a lock: closing ends them, which lets go of their locks. */
  private readonly holding = new Set<pg.PoolClient>();
  private listener: pg.Client | null = null;
  private closed = false;

  constructor(
    private readonly connectionString: string,
    private readonly log: FastifyBaseLogger,
    maxHeld = 32,
  ) {
    this.pool = new pg.Pool({ connectionString, max: maxHeld + 2 });
    this.pool.on('error', (error) => log.warn({ err: error }, 'advisory lock connection failed'));
  }

  /** Starts hearing release requests from other processes. */
  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('error', (error) => {
      this.log.warn({ err: error }, 'advisory lock listener failed');
      if (this.listener === client) this.listener = null;
    });
    client.on('notification', (message) => {
      if (message.payload) void Promise.resolve(this.onReleaseRequest.get(message.payload)?.()).catch(() => undefined);
    });
    await client.connect();
    await client.query(`listen ${RELEASE_CHANNEL}`);
    this.listener = client;
  }

  /** The lock at once, or null when someone holds it. `onReleaseRequest` runs when another request asks for it. */
  async tryAcquire(name: string, onReleaseRequest?: () => unknown): Promise<HeldLock | null> {
    const client = await this.pool.connect();
    if (client.listenerCount('error') === 0) client.on('error', (error) => this.log.warn({ err: error }, 'advisory lock connection lost'));
    try {
      const { rows } = await client.query<{ ok: boolean }>('select pg_try_advisory_lock(hashtextextended($1, 0)) as ok', [name]);
      if (!rows[0]?.ok) {
        client.release();
        return null;
      }
    } catch (error) {
      client.release(true);
      throw error;
    }
    if (onReleaseRequest) this.onReleaseRequest.set(name, onReleaseRequest);
    this.holding.add(client);
    let released = false;
    return {
      release: async () => {
        if (released || !this.holding.delete(client)) return;
        released = true;
        if (this.onReleaseRequest.get(name) === onReleaseRequest) this.onReleaseRequest.delete(name);
        try {
          await client.query('select pg_advisory_unlock(hashtextextended($1, 0))', [name]);
          client.release();
        } catch {
          // A broken connection has lost its locks already; do not reuse it.
          client.release(true);
        }
      },
    };
  }

  /**
   * Waits for the lock, asking its holder once to let go, until `signal` aborts or `timeoutMs` passes (then null).
   */
  async acquire(
    name: string,
    options: { signal?: AbortSignal; timeoutMs: number; onReleaseRequest?: () => unknown },
  ): Promise<HeldLock | null> {
    const deadline = Date.now() + options.timeoutMs;
    let asked = false;
    while (!this.closed && !options.signal?.aborted && Date.now() < deadline) {
      const held = await this.tryAcquire(name, options.onReleaseRequest);
      if (held) return held;
      if (!asked) {
        asked = true;
        await this.requestRelease(name);
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
    return null;
  }

  /** Asks whichever process holds the lock to let go (if its holder said how). */
  async requestRelease(name: string): Promise<void> {
    const local = this.onReleaseRequest.get(name);
    if (local) {
      await local();
      return;
    }
    await this.pool.query('select pg_notify($1, $2)', [RELEASE_CHANNEL, name]);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.listener?.end().catch(() => undefined);
    this.listener = null;
    for (const client of this.holding) client.release(true);
    this.holding.clear();
    await this.pool.end().catch(() => undefined);
  }
}
