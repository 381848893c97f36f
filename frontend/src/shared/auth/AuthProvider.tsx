import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { User, UserManager } from 'oidc-client-ts';
import { configureApi } from '@/shared/api';
import { mapAuthError, shouldSignOut, type AuthErrorCode } from './errors';
import type { AuthLoader } from './loader';
import { rememberRedirect } from './redirect';

export interface AuthUser {
  uid: string;
  email: string | null;
}

export interface AuthContextValue {
  /** False until the stored session has been read at start. */
  ready: boolean;
  user: AuthUser | null;
  isLoggedIn: boolean;
  /** The readable code of the last failure, if any. */
  lastError: AuthErrorCode | null;
  /** Opens the sign-in popup. `redirectTo` is where to go once signed in. A second call while one runs is ignored. */
  login: (redirectTo?: string) => Promise<void>;
  logout: () => Promise<void>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

function toAuthUser(u: User | null): AuthUser | null {
  if (!u || u.expired) return null;
  const email = typeof u.profile.email === 'string' ? u.profile.email : null;
  return { uid: u.profile.sub, email };
}

export function AuthProvider({ auth, children }: { auth: AuthLoader; children: ReactNode }) {
  const [oidcUser, setOidcUserState] = useState<User | null>(null);
  const [manager, setManager] = useState<UserManager | null>(null);
  // Without a stored session there is nothing to restore: ready at once.
  const [ready, setReady] = useState(() => !auth.hasSession());
  const [lastError, setLastError] = useState<AuthErrorCode | null>(null);
  const loginInProgress = useRef(false);
  const tokenRef = useRef<string | null>(null);
  const managerRef = useRef<UserManager | null>(null);

  // The sign-in library, loaded on first need (a stored session, or a sign-in).
  const getManager = useCallback(async () => {
    const m = await auth.load();
    managerRef.current = m;
    setManager(m);
    return m;
  }, [auth]);

  // The API client reads the token from this ref, kept in step with the user.
  const setOidcUser = useCallback((u: User | null) => {
    tokenRef.current = u && !u.expired ? (u.id_token ?? null) : null;
    setOidcUserState(u);
  }, []);

  const clear = useCallback(async () => {
    await managerRef.current?.removeUser();
    setOidcUser(null);
  }, [setOidcUser]);

  const fail = useCallback(
    (err: unknown) => {
      const code = mapAuthError(err);
      if (code === 'popup-closed-by-user') {
        console.info('Sign-in popup closed by the user');
        return;
      }
      console.error(`Sign-in failed (${code})`, err);
      setLastError(code);
      if (shouldSignOut(code)) void clear();
    },
    [clear],
  );

  useEffect(() => {
    configureApi(
      () => tokenRef.current,
      () => fail({ error: 'invalid_grant' }),
    );
  }, [fail]);

  // At start: restore a stored session, loading the library only if there is one.
  useEffect(() => {
    let cancelled = false;
    if (!auth.hasSession()) return;
    auth
      .load()
      .then((m) => {
        managerRef.current = m;
        setManager(m);
        return m.getUser();
      })
      .then((u) => {
        if (!cancelled) setOidcUser(u && !u.expired ? u : null);
      })
      .catch((err: unknown) => console.error('Could not read the stored session', err))
      .finally(() => {
        if (!cancelled) setReady(true);
      });
    return () => {
      cancelled = true;
    };
  }, [auth, setOidcUser]);

  useEffect(() => {
    if (!manager) return;
    const events = manager.events;
    const unsubscribe = [
      events.addUserLoaded((u) => setOidcUser(u)),
      events.addUserUnloaded(() => setOidcUser(null)),
      events.addUserSignedOut(() => void clear()),
      events.addAccessTokenExpired(() => fail({ error: 'invalid_grant' })),
      events.addSilentRenewError((err) => fail(err)),
    ];
    return () => unsubscribe.forEach((off) => off());
  }, [manager, clear, fail, setOidcUser]);

  const login = useCallback(
    async (redirectTo?: string) => {
      if (loginInProgress.current) return;
      loginInProgress.current = true;
      if (redirectTo) rememberRedirect(redirectTo);
      try {
        const m = await getManager();
        const u = await m.signinPopup();
        setLastError(null);
        setOidcUser(u);
      } catch (err) {
        fail(err);
      } finally {
        loginInProgress.current = false;
      }
    },
    [getManager, fail, setOidcUser],
  );

  // Signing out ends the session at the provider too: the refresh token is revoked (it could
  // renew the session otherwise), the stored user is removed, then the browser visits the
  // provider's sign-out page, which ends its own session (a shared computer's next visitor must
  // sign in again) and comes back to the site.
  const logout = useCallback(async () => {
    const m = managerRef.current;
    try {
      const u = m ? await m.getUser() : null;
      if (m && u?.refresh_token) await m.revokeTokens(['refresh_token']);
    } catch (err) {
      console.error('Could not revoke the session at the provider', err);
    }
    try {
      await clear();
    } catch (err) {
      console.error('Sign-out failed', err);
    }
    auth.leave();
  }, [auth, clear]);

  const value = useMemo<AuthContextValue>(() => {
    const user = toAuthUser(oidcUser);
    return { ready, user, isLoggedIn: user !== null, lastError, login, logout };
  }, [ready, oidcUser, lastError, login, logout]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

// Exported next to its provider on purpose: one module owns the auth context.
export function useAuth(): AuthContextValue {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth outside AuthProvider');
  return ctx;
}

/** For tests and previews: provide a fixed auth state. */
export function StaticAuthProvider({ value, children }: { value: AuthContextValue; children: ReactNode }) {
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
