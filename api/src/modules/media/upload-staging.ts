import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { AdvisoryLocks } from '../../db/advisory-locks.js';
import type { Orm } from '../../db/orm.js';
import type { StorageDriver } from '../../storage/storage.js';

const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** The advisory lock an API process holds for as long as it lives (AdvisoryLocks names locks the same way). */
const livenessLock = (instance: string) => `upload-instance:${instance}`;

/** The error of an upload whose files a sweep took, believing its process dead (it had lost its database connection). */
class UploadSweptError extends Error {
  constructor() {
    super("The upload's files were swept while it was in progress");
  }
}

interface Liveness {
  instance: string;
  client: pg.Client;
}

/**
 * Crash safety for the files of a create-mix. Each file is recorded in `staged_file` (with this process's instance id)
 * before its first byte is written, and the record is deleted in the transaction that commits the draft naming it: a
 * record exists exactly while its file belongs to no mix.
 *
 * A process holds a PostgreSQL advisory lock for its instance id for as long as it lives, and PostgreSQL lets go of it
 * when the process dies (even by SIGKILL: its connection closes). A sweep, at start and every hour, tries the lock of
 * every instance with records: when it gets it, that process is dead, its uploads will never finish, and their files
 * and records are deleted. So processes on several machines sharing a bucket never delete each other's files in
 * flight, however long an upload takes, and a restart cleans up at once. Should a live process lose its lock (its
 * connection dropped), a sweep may take its records; its upload then finds them gone when it commits and fails with
 * nothing stored, and the process carries on under a new instance id.
 */
export class UploadStaging {
  private liveness: Promise<Liveness> | null = null;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly orm: Orm,
    private readonly storage: StorageDriver,
    private readonly locks: AdvisoryLocks,
    private readonly connectionString: string,
    private readonly log: Pick<FastifyBaseLogger, 'error' | 'warn'>,
  ) {
    this.sweeper = setInterval(
      () => void this.sweep().catch((error) => this.log.error({ err: error }, 'could not sweep abandoned uploads')),
      SWEEP_INTERVAL_MS,
    ).unref();
  }

  /** This process's instance id, taking its liveness lock on first use (processes that never upload need none). */
  private instance(): Promise<string> {
    if (!this.liveness) {
      const starting: Promise<Liveness> = this.startLiveness((error) => {
        if (this.liveness !== starting) return;
        this.liveness = null;
        this.log.warn({ err: error }, 'upload liveness connection lost; uploads continue under a new instance id');
      });
      this.liveness = starting;
    }
    return this.liveness.then(({ instance }) => instance);
  }

  private async startLiveness(onLost: (error?: Error) => void): Promise<Liveness> {
    const instance = randomBytes(16).toString('hex');
    const client = new pg.Client({ connectionString: this.connectionString, keepAlive: true });
    client.on('error', onLost);
    client.once('end', () => onLost());
    try {
      await client.connect();
      // Keepalives let PostgreSQL notice within about a minute that a machine vanished (power loss, network gone),
      // instead of the operating system's two hours, and so let go of its lock.
      await client.query('set tcp_keepalives_idle = 30; set tcp_keepalives_interval = 10; set tcp_keepalives_count = 3');
      await client.query('select pg_advisory_lock(hashtextextended($1, 0))', [livenessLock(instance)]);
    } catch (error) {
      onLost(error as Error);
      await client.end().catch(() => undefined);
      throw error;
    }
    return { instance, client };
  }

  /** Records that this process is about to write `key`; call it before the first byte. */
  async record(key: string): Promise<void> {
    const instance = await this.instance();
    await this.orm.em
      .fork()
      .getConnection()
      .execute('insert into staged_file (key, instance, created_at) values (?, ?, now())', [key, instance]);
  }

  /**
   * Runs `create`, which writes the row naming the files, in the transaction that forgets their records: either both
   * commit or neither. Fails, writing nothing, when a sweep has taken the records.
   */
  commit<T>(keys: readonly string[], create: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.orm.em.fork().transactional(async (txEm) => {
      const em = txEm as EntityManager;
      const forgotten = await em.execute<{ key: string }[]>('delete from staged_file where key in (?) returning key', [keys]);
      if (forgotten.length !== keys.length) throw new UploadSweptError();
      return create(em);
    });
  }

  /** An upload that failed: its files go, then their records (a crash in between leaves records for the sweep). */
  async discard(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    await Promise.all(keys.map((key) => this.storage.delete(key).catch(() => undefined)));
    await this.orm.em.fork().getConnection().execute('delete from staged_file where key in (?)', [keys]);
  }

  /** Deletes the files (and records) of every dead process's unfinished uploads; answers how many files went. */
  async sweep(): Promise<number> {
    const instances = await this.orm.em.fork().getConnection().execute<{ instance: string }[]>('select distinct instance from staged_file');
    let removed = 0;
    for (const { instance } of instances) {
      // Held by someone (this process included): that process lives, and its uploads may still finish.
      const held = await this.locks.tryAcquire(livenessLock(instance));
      if (!held) continue;
      try {
        removed += await this.sweepInstance(instance);
      } finally {
        await held.release();
      }
    }
    return removed;
  }

  /** One dead process's records, locked while their files are deleted, so a commit can never slip in between. */
  private sweepInstance(instance: string): Promise<number> {
    return this.orm.em.fork().transactional(async (txEm) => {
      const em = txEm as EntityManager;
      const records = await em.execute<{ key: string }[]>('delete from staged_file where instance = ? returning key', [instance]);
      for (const { key } of records) await this.storage.delete(key);
      return records.length;
    });
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const liveness = this.liveness;
    this.liveness = null;
    const running = await liveness?.catch(() => null);
    await running?.client.end().catch(() => undefined);
  }
}
