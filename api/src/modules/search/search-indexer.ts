/**
 * The indexer's loop (docs/search.md#freshness): it listens on `search_pending`, which the triggers notify on every
 * change, and indexes the queued rows a moment later; every few seconds it looks anyway, in case a notification was
 * missed while the connection was down. Several instances share the queue (rows are claimed with skip locked).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import pg from 'pg';
import { indexPending } from './search-index.js';

const SETTLE_MS = 20;
const SWEEP_MS = 5000;

export class SearchIndexer {
  private client: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private sweep: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;

  constructor(
    private readonly fork: () => EntityManager,
    private readonly connectionString: string,
    private readonly log: { warn(object: object, message: string): void },
  ) {}

  async start(): Promise<void> {
    this.sweep = setInterval(() => this.soon(), SWEEP_MS);
    this.sweep.unref();
    await this.listen();
    this.soon();
  }

  private async listen(): Promise<void> {
    if (this.closed || !this.connectionString) return;
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('error', (error) => {
      this.log.warn({ err: error }, 'search indexer: listening connection lost');
      this.client = null;
      if (!this.closed) setTimeout(() => void this.listen(), 1000).unref();
    });
    client.on('notification', () => this.soon());
    try {
      await client.connect();
      await client.query('listen search_pending');
      this.client = client;
    } catch (error) {
      this.log.warn({ err: error }, 'search indexer: could not listen; sweeping only');
      await client.end().catch(() => undefined);
    }
  }

  /** Indexes what is queued, a moment from now (a burst of changes is one run). */
  soon(): void {
    if (this.closed || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.run();
    }, SETTLE_MS);
  }

  /** Indexes everything queued now; resolves when done (tests and the bench wait on it). */
  async run(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await indexPending(this.fork);
        } catch (error) {
          if (!this.closed) this.log.warn({ err: error }, 'search indexer: run failed');
        }
      } while (this.again && !this.closed);
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.sweep) clearInterval(this.sweep);
    await this.running?.catch(() => undefined);
    await this.client?.end().catch(() => undefined);
    this.client = null;
  }
}
