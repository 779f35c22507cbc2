import { decodeJwt } from 'jose';
import type { SessionsEnded, SessionsService } from '../modules/auth/sessions.service.js';
import type { Viewer } from '../shared/viewer.js';

/** graphql-ws's Forbidden: the client's sign-in no longer holds. */
export const SOCKET_FORBIDDEN = 4403;
/** The longest a Node timer waits; a later expiry closes the socket then, and the client reconnects with its token. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** What is asked of a socket (a `ws` WebSocket): to close, and to say when it has. */
export interface ClosableSocket {
  close(code: number, reason: string): void;
  once(event: 'close', listener: () => void): unknown;
  off(event: 'close', listener: () => void): unknown;
}

/**
 * This process's signed-in graphql-ws sockets, by session: a socket lasts as long as its sign-in. It closes with 4403
 * when its token expires, and as soon as its session ends, wherever it was ended (the session table's notification
 * reaches every instance). When notifications may have been missed (listening began or resumed), the open sockets'
 * sessions are asked again.
 */
export class SignedInSockets {
  private readonly bySession = new Map<string, Set<ClosableSocket>>();
  private readonly stopHearing: () => void;

  constructor(
    private readonly sessions: Pick<SessionsService, 'claims' | 'authenticate' | 'stillHeld' | 'onEnded'>,
    private readonly log: { warn(object: object, message: string): void },
  ) {
    this.stopHearing = sessions.onEnded((ended) => void this.closeEnded(ended));
  }

  /**
   * Signs a socket in with a token: 401 (a DomainError) when the token or its session does not hold. The socket is
   * registered before its session is asked, so an ending that arrives meanwhile still closes it.
   */
  async admit(socket: ClosableSocket, token: string): Promise<Viewer> {
    const { sessionId } = await this.sessions.claims(token);
    this.add(sessionId, socket);
    const removed = () => this.remove(sessionId, socket);
    socket.once('close', removed);
    try {
      const viewer = await this.sessions.authenticate(token);
      this.closeWhenExpired(socket, token);
      return viewer;
    } catch (error) {
      socket.off('close', removed);
      removed();
      throw error;
    }
  }

  private add(sessionId: string, socket: ClosableSocket): void {
    const sockets = this.bySession.get(sessionId) ?? new Set<ClosableSocket>();
    sockets.add(socket);
    this.bySession.set(sessionId, sockets);
  }

  private remove(sessionId: string, socket: ClosableSocket): void {
    const sockets = this.bySession.get(sessionId);
    sockets?.delete(socket);
    if (sockets?.size === 0) this.bySession.delete(sessionId);
  }

  private closeWhenExpired(socket: ClosableSocket, token: string): void {
    const { exp } = decodeJwt(token);
    if (exp === undefined) return;
    const timer = setTimeout(
      () => socket.close(SOCKET_FORBIDDEN, 'Forbidden: the session expired'),
      Math.min(LONGEST_TIMER_MS, Math.max(0, exp * 1000 - Date.now())),
    );
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  }

  private async closeEnded(ended: SessionsEnded): Promise<void> {
    let gone: string[];
    if (ended === 'any') {
      const open = [...this.bySession.keys()];
      try {
        const held = await this.sessions.stillHeld(open);
        gone = open.filter((sessionId) => !held.has(sessionId));
      } catch (error) {
        // Asked again the next time listening resumes; meanwhile each socket still closes when its token expires.
        this.log.warn({ err: error }, 'could not check the open sockets’ sessions');
        return;
      }
    } else {
      gone = [...ended];
    }
    for (const sessionId of gone) {
      for (const socket of this.bySession.get(sessionId) ?? []) socket.close(SOCKET_FORBIDDEN, 'Forbidden: the session ended');
    }
  }

  dispose(): void {
    this.stopHearing();
  }
}
