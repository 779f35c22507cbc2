import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { useMutation } from '@apollo/client/react';
import { type DocumentNode, print } from 'graphql';
import { useEffect, useRef } from 'react';
import { useAuth } from '../auth/auth';
import { EndListenDocument, HeartbeatListenDocument, PlayMixDocument, SaveCurrentMixDocument, StartListenDocument } from '../gql/graphql';
import { authHeaders } from '../lib/auth-headers';
import { readToken } from '../lib/storage';
import { type PlayerEvent, usePlayer } from './PlayerProvider';

/**
 * A tab being closed cannot wait for Apollo: a keepalive request outlives the page. The document is printed when it
 * is sent, not when this module loads: printing is work a page that never plays should not do while it starts.
 */
function sendOnLeave(document: DocumentNode, variables: Record<string, unknown>): void {
  if (!readToken()) return;
  void fetch('/graphql', {
    method: 'POST',
    keepalive: true,
    headers: { 'content-type': 'application/json', ...authHeaders() },
    body: JSON.stringify({ query: print(document), variables }),
  }).catch(() => undefined);
}

/**
 * Reports what the player does (docs/player-and-listens.md#listens, docs/player-and-listens.md#calls): a play is counted once per mix loaded; in private
 * mode a listen starts on play, is kept alive by a heartbeat every 25 s (so the mix's "listening now" counts it; a
 * listen that went silent, say while a laptop slept, is started again) and ends on pause or end, and the current mix
 * and position are remembered on pause, end, every heartbeat and when the page is left. Public mode counts plays only.
 */
export function ListenReporter() {
  const player = usePlayer();
  const { token } = useAuth();
  const [playMix] = useMutation(PlayMixDocument);
  const [startListen] = useMutation(StartListenDocument);
  const [endListen] = useMutation(EndListenDocument);
  const [heartbeatListen] = useMutation(HeartbeatListenDocument);
  const [saveCurrentMix] = useMutation(SaveCurrentMixDocument);
  const counted = useRef<string | null>(null);
  const openListen = useRef<string | null>(null);
  const context = useRef({ token, mode: player.mode });
  context.current = { token, mode: player.mode };

  useEffect(() => {
    const ignore = () => undefined;
    return player.subscribe((event: PlayerEvent) => {
      const mixId = event.mix.id;
      const remembers = context.current.mode === 'private' && Boolean(context.current.token);
      const position = Math.floor(event.position * 10) / 10;
      switch (event.type) {
        case 'play':
          if (counted.current !== mixId) {
            counted.current = mixId;
            playMix({ variables: { mixId } }).catch(ignore);
          }
          if (remembers) {
            openListen.current = mixId;
            startListen({ variables: { mixId } }).catch(ignore);
          }
          break;
        case 'pause':
        case 'ended':
          if (openListen.current === mixId) {
            openListen.current = null;
            endListen({ variables: { mixId } }).catch(ignore);
          }
          if (remembers) saveCurrentMix({ variables: { mixId, position } }).catch(ignore);
          break;
        case 'heartbeat':
          if (openListen.current === mixId) {
            heartbeatListen({ variables: { mixId } }).catch((error: unknown) => {
              const lost = CombinedGraphQLErrors.is(error) && error.errors.some((entry) => entry.extensions?.code === 'NOT_FOUND');
              if (lost && openListen.current === mixId) startListen({ variables: { mixId } }).catch(ignore);
            });
          }
          if (remembers) saveCurrentMix({ variables: { mixId, position } }).catch(ignore);
          break;
        case 'leave':
          if (openListen.current === mixId) sendOnLeave(EndListenDocument, { mixId });
          if (remembers) sendOnLeave(SaveCurrentMixDocument, { mixId, position });
          break;
      }
    });
  }, [player.subscribe, playMix, startListen, endListen, heartbeatListen, saveCurrentMix]);

  return null;
}
