import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { usePlayer } from '../player/PlayerProvider';
import { useAuth } from './auth';

/** What a page may tell the page it leads to (the sign-in page shows it). */
export interface LeavingState {
  notice: string;
}

/**
 * Forgets the session on this device, once the server has been told (or could not be): logout clears all (docs/navigation.md#side-menu)
 * local storage and every client state group, then goes to `to`, with a notice for the page there when given.
 */
export function useSignOutHere(): (to: string, notice?: string) => void {
  const auth = useAuth();
  const player = usePlayer();
  const navigate = useNavigate();
  return useCallback(
    (to: string, notice?: string) => {
      player.pause();
      try {
        localStorage.clear();
      } catch {
        // Storage unavailable: nothing stored to clear.
      }
      // The GraphQL boundary drops what the cache holds for this session when the token goes. The private page on
      // screen may notice the sign-out before the navigation lands: its guard then leads to the same place.
      auth.leave({ to, notice });
      navigate(to, notice ? { state: { notice } satisfies LeavingState } : undefined);
    },
    [auth, player, navigate],
  );
}
