import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { clearLoginData, readToken, StorageKeys, writeStored } from '../lib/storage';

/**
 * Dispatched on `window` when the API refuses this device's token (its session was signed out elsewhere, or expired):
 * the app forgets it, and a private page leads to the sign-in page.
 */
export const SESSION_REFUSED_EVENT = 'mixcrate:session-refused';
/** What the sign-in page then says. */
export const SESSION_REFUSED_NOTICE = 'You were signed out on this device. Please sign in again.';

export interface SignedIn {
  token: string;
  userName?: string | null;
}

/** Where a sign-out on purpose leads, and what the page there tells the visitor. */
export interface Leaving {
  to: string;
  notice?: string;
}

export interface Auth {
  /** The session token: in memory, and persisted in localStorage 'token' (which the Apollo link reads). */
  token: string | null;
  signIn(session: SignedIn): void;
  /** Forgets the stored login (token, user_name, location, user_type). */
  signOut(): void;
  /** Signs out on purpose: a private page still on screen then leads where `leaving` says, not to the landing page. */
  leave(leaving: Leaving): void;
  /** Where the last `leave` went, until the next sign-in. */
  leaving: Leaving | null;
}

const AuthContext = createContext<Auth | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const [token, setToken] = useState<string | null>(readToken);
  const [leaving, setLeaving] = useState<Leaving | null>(null);

  const signIn = useCallback(({ token, userName }: SignedIn) => {
    writeStored(StorageKeys.token, token);
    if (userName) writeStored(StorageKeys.userName, userName);
    setLeaving(null);
    setToken(token);
  }, []);

  const signOut = useCallback(() => {
    clearLoginData();
    setToken(null);
  }, []);

  const leave = useCallback(
    (to: Leaving) => {
      setLeaving(to);
      signOut();
    },
    [signOut],
  );

  useEffect(() => {
    const refused = () => {
      if (readToken()) leave({ to: '/signin', notice: SESSION_REFUSED_NOTICE });
    };
    window.addEventListener(SESSION_REFUSED_EVENT, refused);
    return () => window.removeEventListener(SESSION_REFUSED_EVENT, refused);
  }, [leave]);

  const value = useMemo<Auth>(() => ({ token, signIn, signOut, leave, leaving }), [token, signIn, signOut, leave, leaving]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth must be used inside <AuthProvider>');
  return auth;
}
