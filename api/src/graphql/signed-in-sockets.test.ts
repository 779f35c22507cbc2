import { EventEmitter } from 'node:events';
import { decodeJwt, SignJWT } from 'jose';
import { expect, test, vi } from 'vitest';
import type { SessionsEnded } from '../modules/auth/sessions.service.js';
import type { Viewer } from '../shared/viewer.js';
import { SignedInSockets, SOCKET_FORBIDDEN } from './signed-in-sockets.js';

class FakeSocket extends EventEmitter {
  closedWith: number | null = null;
  close(code: number): void {
    this.closedWith ??= code;
    this.emit('close');
  }
}

/** Sessions named by their tokens' `sid`, held while in `held`. */
function fakeSessions(held: Set<string>) {
  let tell: (ended: SessionsEnded) => void = () => undefined;
  const viewerOf = (token: string): Viewer => ({ id: 'member', sessionId: String(decodeJwt(token).sid) });
  return {
    ended: (change: SessionsEnded) => tell(change),
    sessions: {
      claims: async (token: string) => viewerOf(token),
      authenticate: async (token: string) => {
        const viewer = viewerOf(token);
        if (!held.has(viewer.sessionId)) throw new Error('ended');
        return viewer;
      },
      stillHeld: vi.fn(async (ids: readonly string[]) => new Set(ids.filter((id) => held.has(id)))),
      onEnded: (listener: (ended: SessionsEnded) => void) => {
        tell = listener;
        return () => undefined;
      },
    },
  };
}

const tokenFor = (sessionId: string) =>
  new SignJWT({ sid: sessionId }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode('k'));
const log = { warn: () => undefined };

test('an ended session closes its sockets with 4403, and no other', async () => {
  const { sessions, ended } = fakeSessions(new Set(['a', 'b']));
  const sockets = new SignedInSockets(sessions, log);
  const [first, second, other] = [new FakeSocket(), new FakeSocket(), new FakeSocket()];
  await sockets.admit(first, await tokenFor('a'));
  await sockets.admit(second, await tokenFor('a'));
  await sockets.admit(other, await tokenFor('b'));
  ended(['a']);
  await vi.waitFor(() => expect([first.closedWith, second.closedWith]).toEqual([SOCKET_FORBIDDEN, SOCKET_FORBIDDEN]));
  expect(other.closedWith).toBeNull();
});

test('when endings may have been missed, the open sockets’ sessions are asked again and the ended ones close', async () => {
  const held = new Set(['a', 'b']);
  const { sessions, ended } = fakeSessions(held);
  const sockets = new SignedInSockets(sessions, log);
  const [kept, gone] = [new FakeSocket(), new FakeSocket()];
  await sockets.admit(kept, await tokenFor('a'));
  await sockets.admit(gone, await tokenFor('b'));
  held.delete('b');
  ended('any');
  await vi.waitFor(() => expect(gone.closedWith).toBe(SOCKET_FORBIDDEN));
  expect(sessions.stillHeld).toHaveBeenCalledWith(['a', 'b']);
  expect(kept.closedWith).toBeNull();
});

test('a socket whose session is refused is not kept; a closed socket is forgotten', async () => {
  const { sessions, ended } = fakeSessions(new Set(['a']));
  const sockets = new SignedInSockets(sessions, log);
  await expect(sockets.admit(new FakeSocket(), await tokenFor('z'))).rejects.toThrow('ended');
  const left = new FakeSocket();
  await sockets.admit(left, await tokenFor('a'));
  left.close(1000);
  ended('any');
  await vi.waitFor(() => expect(sessions.stillHeld).toHaveBeenCalledWith([]));
});
