import { Navigate, Outlet } from 'react-router';
import { readToken } from '../lib/storage';
import { usePlayerMode } from '../player/PlayerProvider';
import { RestoreCurrentMix } from '../player/RestoreCurrentMix';
import { useAuth } from './auth';

/**
 * SPEC §2 route guard: a private route admits the user when a token is in the auth state or in local storage;
 * private routes wrap the player in private mode (it remembers the position and reports listens) and restore the
 * member's remembered mix.
 */
export function RequireAuth() {
  const { token } = useAuth();
  const admitted = Boolean(token || readToken());
  usePlayerMode(admitted ? 'private' : 'public');
  if (!admitted) return <Navigate to="/" replace />;
  return (
    <>
      <RestoreCurrentMix />
      <Outlet />
    </>
  );
}
