import { Navigate, Outlet } from 'react-router';
import { readToken } from '../lib/storage';
import { useAuth } from './auth';

/** SPEC §2 route guard: a private route admits the user when a token is in the auth state or in local storage. */
export function RequireAuth() {
  const { token } = useAuth();
  if (!token && !readToken()) return <Navigate to="/" replace />;
  return <Outlet />;
}
