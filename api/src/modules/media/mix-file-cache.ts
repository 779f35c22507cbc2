import pg from 'pg';
import type { MixAccessFacts } from '../mixes/mix.policy.js';

/** What delivery needs to know about the mix a file belongs to: what the mix policy decides access from. */
export type MixFileFacts = MixAccessFacts;

/** The channel the mix table's trigger notifies (see Migration20261124000000_mix_files) with the changed file names. */
export const MIX_FILES_CHANNEL = 'mix_files_changed';
const RECONNECT_MS = 1000;

/**
 * Remembers, per file name, the facts of its mix, so a listener seeking through a mix (dozens of Range requests)
 * costs one database query, not one each. Correct at once, on every instance: the mix table notifies every change of
 * status, deactivation, expiry or files over LISTEN/NOTIFY and the entries go; an entry also lapses when its mix
 * expires. Until the listening connection is up (and whenever it drops) nothing is cached, so nothing can go stale.
 */
export class MixFileCache {
  private readonly entries = new Map<string, { facts: MixFileFacts; until: number }>();
  /** Bumped by every notification: a read that started before one must not be cached. */
  private generation = 0;
  private listening = false;
  private client: pg.Client | null = null;
  private starting: Promise<void> | null = null;
  private reconnect: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly connectionString: string,
    private readonly log: { warn(object: object, message: string): void },
    private readonly ttlMs = 60_000,
    private readonly maxEntries = 10_000,
  ) {}

  async facts(fileName: string, load: () => Promise<MixFileFacts | null>): Promise<MixFileFacts | null> {
    const hit = this.entries.get(fileName);
    if (hit && hit.until > Date.now()) return hit.facts;
    if (!this.listening) this.restart();
    const generation = this.generation;
    const facts = await load();
    if (facts && this.listening && generation === this.generation) {
      const until = Math.min(Date.now() + this.ttlMs, facts.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY);
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(fileName, { facts, until });
    }
    return facts;
  }

  private forgetAll(): void {
    this.generation += 1;
    this.entries.clear();
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString, application_name: 'mixcrate-media-cache' });
    const lost = (error?: Error) => {
      if (this.client !== client) return;
      this.listening = false;
      this.client = null;
      this.forgetAll();
      client.end().catch(() => undefined);
      if (error) this.log.warn({ err: error }, 'media cache lost its notifications; caching paused');
      if (!this.closed) this.reconnect = setTimeout(() => this.restart(), RECONNECT_MS).unref();
    };
    client.on('notification', (message) => {
      this.generation += 1;
      for (const name of (message.payload ?? '').split(' ')) this.entries.delete(name);
    });
    client.on('error', lost);
    client.on('end', () => lost());
    this.client = client;
    try {
      await client.connect();
      await client.query(`listen ${MIX_FILES_CHANNEL}`);
      if (this.client === client) this.listening = true;
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
    if (this.reconnect) clearTimeout(this.reconnect);
    await this.starting;
    const client = this.client;
    this.client = null;
    this.listening = false;
    this.forgetAll();
    await client?.end().catch(() => undefined);
  }
}
