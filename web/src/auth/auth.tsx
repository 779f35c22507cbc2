import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { clearLoginData, readToken, StorageKeys, writeStored } from '../lib/storage';

export interface SignedIn {
  token: string;
  userName?: string | null;
}

export interface Auth {
  /** The session token: in memory, and persisted in localStorage 'token' (which the Apollo link reads). */
  token: string | null;
  signIn(session: SignedIn): void;
  /** Forgets the stored login (token, user_name, location, user_type). */
  signOut(): void;
}

const AuthContext = createContext<Auth | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const [token, setToken] = useState<string | null>(readToken);

  const signIn = useCallback(({ token, userName }: SignedIn) => {
    writeStored(StorageKeys.token, token);
    if (userName) writeStored(StorageKeys.userName, userName);
    setToken(token);
  }, []);

  const signOut = useCallback(() => {
    clearLoginData();
    setToken(null);
  }, []);

  const value = useMemo<Auth>(() => ({ token, signIn, signOut }), [token, signIn, signOut]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth must be used inside <AuthProvider>');
  return auth;
}
