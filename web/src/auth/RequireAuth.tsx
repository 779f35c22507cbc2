import { Navigate, Outlet } from 'react-router';
import { readToken } from '../lib/storage';
import { usePlayerMode } from '../player/PlayerProvider';
import { RestoreCurrentMix } from '../player/RestoreCurrentMix';
import { useAuth } from './auth';
import type { LeavingState } from './use-sign-out-here';

/**
 * Route guard (docs/navigation.md#private-routes): a private route admits the user when a token is in the auth state or in local storage (else it
 * leads to the landing page, or where a sign-out on purpose said, with its notice);
 * private routes wrap the player in private mode (it remembers the position and reports listens) and restore the
 * member's remembered mix.
 */
export function RequireAuth() {
  const { token, leaving } = useAuth();
  const admitted = Boolean(token || readToken());
  usePlayerMode(admitted ? 'private' : 'public');
  if (!admitted) {
    const state: LeavingState | undefined = leaving?.notice ? { notice: leaving.notice } : undefined;
    return <Navigate to={leaving?.to ?? '/'} state={state} replace />;
  }
  return (
    <>
      <RestoreCurrentMix />
      <Outlet />
    </>
  );
}
