import type { EntityManager } from '@mikro-orm/postgresql';
import { type CacheChange, NotifiedCache } from '../../db/notified-cache.js';
import type { Orm } from '../../db/orm.js';
import type { Viewer } from '../../shared/viewer.js';
import { AuthErrors } from './auth.errors.js';
import { MemberSession } from './member-session.entity.js';
import type { TokenService } from './tokens.js';

/** The channel member_session's trigger notifies with an ended session's id (see Migration20261205000000_sessions). */
const SESSIONS_ENDED_CHANNEL = 'sessions_ended';
/** The most often a session's last use is written: a busy member's requests do not each cost a write. */
const TOUCH_AT_MOST_EVERY_MS = 60 * 60 * 1000;

export interface SessionLifetimes {
  /** The most a session lasts from its sign-in (JWT_TTL): its token's expiry. */
  lifetimeMs: number;
  /** A session unused this long ends (SESSION_IDLE_TTL); each use moves it on. */
  idleMs: number;
}

interface HeldSession {
  memberId: string;
  expiresAt: Date;
  lastSeenAt: Date;
}

/** What an ended session's holders hear: the ended sessions' ids, or `'any'` when any open one may have ended unheard. */
export type SessionsEnded = CacheChange;

/**
 * Server-side sessions: a row per sign-in, checked on every request and socket, so a sign-out, a password change or a
 * reset ends access at once, on every instance. Which sessions hold is remembered per instance (a signed-in request, a
 * feed page or each range of a mix, would otherwise ask the database first); an ended session's entry goes at once
 * everywhere, by notification.
 */
export class SessionsService {
  private readonly held: NotifiedCache<HeldSession>;
  private readonly touchEveryMs: number;

  constructor(
    private readonly orm: Orm,
    private readonly tokens: TokenService,
    private readonly lifetimes: SessionLifetimes,
    connectionString: string,
    log: { warn(object: object, message: string): void },
  ) {
    // An hour at most: endings arrive by notification (and nothing is remembered while they cannot), so the time limit
    // is only a backstop; an entry also lapses when its session would idle out or expire.
    this.held = new NotifiedCache<HeldSession>(connectionString, log, {
      channel: SESSIONS_ENDED_CHANNEL,
      ttlMs: 60 * 60 * 1000,
      expiresAt: (session) => new Date(Math.min(session.expiresAt.getTime(), this.idleEnd(session))),
    });
    // Often enough that an idle end computed from a stale last use is off by a small part of the idle time.
    this.touchEveryMs = Math.min(TOUCH_AT_MOST_EVERY_MS, Math.floor(lifetimes.idleMs / 4));
  }

  private idleEnd(session: HeldSession): number {
    return session.lastSeenAt.getTime() + this.lifetimes.idleMs;
  }

  /**
   * Begins a session for a member, in the caller's transaction, and answers its token. The member's sessions that have
   * run out are cleared on the way, so their rows do not pile up.
   */
  async begin(em: EntityManager, memberId: string): Promise<string> {
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.lifetimes.lifetimeMs);
    const session = em.create(MemberSession, { user: memberId, lastSeenAt: now, expiresAt });
    await em.flush();
    await em.execute('delete from member_session where user_id = ? and (expires_at <= now() or last_seen_at <= ?)', [
      memberId,
      new Date(now.getTime() - this.lifetimes.idleMs),
    ]);
    return this.tokens.sign({ id: memberId, sessionId: session.id }, expiresAt);
  }

  /** Who a token signs in: 401 when it is forged or expired, or its session has ended or idled out. */
  async authenticate(token: string): Promise<Viewer> {
    const viewer = await this.tokens.verify(token);
    const session = await this.held.get(viewer.sessionId, () => this.load(viewer.sessionId));
    if (!session || session.memberId !== viewer.id) throw AuthErrors.sessionEnded();
    const now = Date.now();
    if (session.expiresAt.getTime() <= now || this.idleEnd(session) <= now) {
      await this.end(viewer.sessionId);
      throw AuthErrors.sessionExpired();
    }
    if (now - session.lastSeenAt.getTime() >= this.touchEveryMs) {
      // The remembered entry is this instance's own record of the row: it learns the write it asks for, so the next
      // requests do not ask again.
      session.lastSeenAt = new Date(now);
      await this.orm.em
        .fork()
        .getConnection()
        .execute('update member_session set last_seen_at = ? where id = ?', [session.lastSeenAt, viewer.sessionId]);
    }
    return viewer;
  }

  /** The member and session a token names, without asking whether the session holds (a socket registers first). */
  claims(token: string): Promise<Viewer> {
    return this.tokens.verify(token);
  }

  private async load(sessionId: string): Promise<HeldSession | null> {
    const row = await this.orm.em.fork().findOne(MemberSession, sessionId, { fields: ['user', 'expiresAt', 'lastSeenAt'] });
    return row ? { memberId: row.user.id, expiresAt: row.expiresAt, lastSeenAt: row.lastSeenAt } : null;
  }

  /** Ends one session; how many ended (0 when it already had). */
  async end(sessionId: string): Promise<number> {
    const ended = await this.endWhere(this.orm.em.fork() as EntityManager, 'id = ?', [sessionId]);
    this.forget(ended);
    return ended.length;
  }

  /** Ends every session of a member; how many ended. */
  async endAll(memberId: string): Promise<number> {
    const ended = await this.endWhere(this.orm.em.fork() as EntityManager, 'user_id = ?', [memberId]);
    this.forget(ended);
    return ended.length;
  }

  /**
   * Ends a member's sessions in the caller's transaction (all, or all but one), answering their ids: the caller hands
   * them to `forget` once the transaction has committed.
   */
  endWithin(em: EntityManager, memberId: string, except?: string): Promise<string[]> {
    return except ? this.endWhere(em, 'user_id = ? and id <> ?', [memberId, except]) : this.endWhere(em, 'user_id = ?', [memberId]);
  }

  private async endWhere(em: EntityManager, condition: string, params: unknown[]): Promise<string[]> {
    const rows = await em.execute<{ id: string }[]>(`delete from member_session where ${condition} returning id`, params);
    return rows.map((row) => row.id);
  }

  /**
   * Sessions this process has just ended: forgotten here at once, and their holders told, without waiting for the
   * notification (which tells every other instance).
   */
  forget(sessionIds: readonly string[]): void {
    this.held.forget(sessionIds);
  }

  /** Of these sessions, the ones that still hold. */
  async stillHeld(sessionIds: readonly string[]): Promise<Set<string>> {
    if (sessionIds.length === 0) return new Set();
    const rows = await this.orm.em
      .fork()
      .getConnection()
      .execute<{ id: string }[]>('select id from member_session where id in (?) and expires_at > now() and last_seen_at > ?', [
        sessionIds,
        new Date(Date.now() - this.lifetimes.idleMs),
      ]);
    return new Set(rows.map((row) => row.id));
  }

  /** Hears every ended session (see `SessionsEnded`); answers how to stop. */
  onEnded(listener: (ended: SessionsEnded) => void): () => void {
    return this.held.onChange(listener);
  }

  close(): Promise<void> {
    return this.held.close();
  }
}
