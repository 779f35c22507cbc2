import { useQuery } from '@apollo/client/react';
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { ViewerDocument } from '../gql/graphql';
import { usePlayer } from './PlayerProvider';
import { toPlayerMix } from './to-player-mix';

/** On home, the player auto-plays 1.0 to 1.2 s after the mix loads (docs/player-and-listens.md#current-mix-and-position). */
export const AUTOPLAY_DELAY_MS = 1100;

/**
 * Puts the member's remembered mix and position into an idle player on their first private screen of the visit; on
 * /home it then auto-plays shortly after (browsers may refuse without a gesture: the play button still works).
 */
export function RestoreCurrentMix() {
  const player = usePlayer();
  const { pathname } = useLocation();
  const { data } = useQuery(ViewerDocument);
  const restored = useRef(false);
  const me = data?.me;
  const onHome = pathname === '/home';

  useEffect(() => {
    if (restored.current || !me || player.mix) return;
    restored.current = true;
    if (!me.currentMix) return;
    const duration = me.currentMix.durationSeconds ?? 0;
    // A mix that was listened to the end starts again from the top.
    const startAt = duration > 0 && me.currentMixPosition >= duration - 1 ? 0 : me.currentMixPosition;
    player.load(toPlayerMix(me.currentMix), { startAt });
    if (!onHome) return;
    const timer = setTimeout(() => player.play(), AUTOPLAY_DELAY_MS);
    return () => clearTimeout(timer);
  }, [me, player, onHome]);

  return null;
}
