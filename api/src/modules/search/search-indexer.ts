/**
 * The indexer's loop (docs/search.md#freshness): it listens on `search_pending`, which the triggers notify on every
 * change, and indexes the queued rows a moment later; every few seconds it looks anyway, in case a notification was
 * missed while the connection was down. Several instances share the queue (rows are claimed with skip locked). It also
 * hears the new words any instance's indexer adds (`search_words`) and passes them on to this instance's in-memory
 * vocabulary, which the sweep refreshes too.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import pg from 'pg';
import { buildIndex, indexPending, WORDS_CHANNEL } from './search-index.js';

const SETTLE_MS = 20;
const SWEEP_MS = 5000;

export class SearchIndexer {
  private client: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private sweep: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;
  /** Whether this instance has checked for an empty index (and built it whole) since it started. */
  private checked = false;

  constructor(
    private readonly fork: () => EntityManager,
    private readonly connectionString: string,
    private readonly log: { warn(object: object, message: string): void },
    /** New words were added (from `firstId` on, when known). */
    private readonly onWords: (firstId?: number) => void = () => undefined,
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
    client.on('notification', (message) => {
      if (message.channel === WORDS_CHANNEL) this.onWords(Number(message.payload) || undefined);
      else this.soon();
    });
    try {
      await client.connect();
      await client.query(`listen search_pending; listen ${WORDS_CHANNEL}`);
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

  /** Builds the whole index at once if it is empty (a new installation), on a connection of its own. */
  private async buildIfEmpty(): Promise<void> {
    if (this.connectionString) {
      const client = new pg.Client({ connectionString: this.connectionString, options: '-c jit=off' });
      await client.connect();
      try {
        await buildIndex(client);
      } finally {
        await client.end();
      }
    }
    this.checked = true;
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
          if (!this.checked) await this.buildIfEmpty();
          await indexPending(this.fork);
          // Words this instance added (announced too, but this is sooner), and those a missed notification named.
          this.onWords();
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
