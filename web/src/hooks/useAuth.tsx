// The signed-in state shared by every route: session, the gateway's user, and the actions on them.
import type { Session, SignedInUser } from '@blockcatch/sdk';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useState } from 'react';
import { hasStoredSession, loadSdk } from '../lib/loadSdk.js';

export type AuthState =
  | { status: 'loading' }
  | { status: 'anonymous' }
  | { status: 'signed-in'; session: Session; user: SignedInUser };

interface AuthContextValue {
  state: AuthState;
  /** Reloads session and user, e.g. after sign-in, payment or settings change. */
  refresh(): Promise<void>;
  signOut(): Promise<void>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

async function loadState(): Promise<AuthState> {
  // No kept session: anonymous at once, without fetching the SDK for it.
  if (!hasStoredSession()) return { status: 'anonymous' };
  try {
    const { auth, gateway } = await loadSdk();
    const session = await auth.currentSession();
    const user = await gateway.me();
    return { status: 'signed-in', session, user };
  } catch {
    return { status: 'anonymous' };
  }
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<AuthState>(() =>
    hasStoredSession() ? { status: 'loading' } : { status: 'anonymous' },
  );
  const refresh = useCallback(async () => setState(await loadState()), []);
  const signOut = useCallback(async () => {
    const { auth } = await loadSdk();
    await auth.signOut().catch(() => {});
    // The next account must not see this one's server data.
    const { queryClient } = await import('../lib/queryClient.js');
    queryClient.clear();
    setState({ status: 'anonymous' });
  }, []);
  useEffect(() => {
    void refresh();
  }, [refresh]);
  return (
    <AuthContext.Provider value={{ state, refresh, signOut }}>{children}</AuthContext.Provider>
  );
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth needs <AuthProvider> above it');
  return value;
}
