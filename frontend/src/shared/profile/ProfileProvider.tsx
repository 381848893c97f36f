import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { api, type Me } from '@/shared/api';
import { useAuth } from '@/shared/auth';

export type ProfileState =
  | { status: 'signed-out' }
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; me: Me };

export interface ProfileContextValue {
  state: ProfileState;
  /** The profile when it is loaded, else null. */
  me: Me | null;
  /** Reloads the profile (GET /api/me); on failure the loaded profile stays. */
  refresh: () => Promise<void>;
  /** Accepts the privacy policy and terms on the server, then updates the profile. */
  acceptTerms: () => Promise<void>;
}

const ProfileContext = createContext<ProfileContextValue | null>(null);

/** A loaded (or failed) profile, and whose it is. */
interface Loaded {
  uid: string;
  state: ProfileState;
}

async function load(uid: string): Promise<Loaded> {
  try {
    return { uid, state: { status: 'ready', me: await api.get<Me>('/api/me') } };
  } catch (err) {
    console.error('Could not load the profile', err);
    return { uid, state: { status: 'error', message: err instanceof Error ? err.message : String(err) } };
  }
}

/** The signed-in user's profile (GET /api/me), shared by the terms modal, the dashboard and pricing. */
export function ProfileProvider({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const uid = user?.uid ?? null;
  const [loaded, setLoaded] = useState<Loaded | null>(null);

  useEffect(() => {
    if (!uid) return;
    let cancelled = false;
    void load(uid).then((l) => {
      if (!cancelled) setLoaded(l);
    });
    return () => {
      cancelled = true;
    };
  }, [uid]);

  // Reloads the profile after something changed it on the server (a purchase): every screen
  // reading it follows at once. A failed reload keeps the profile already shown.
  const refresh = useCallback(async () => {
    if (!uid) return;
    const next = await load(uid);
    setLoaded((prev) =>
      next.state.status === 'error' && prev?.uid === uid && prev.state.status === 'ready' ? prev : next,
    );
  }, [uid]);

  const acceptTerms = useCallback(async () => {
    if (!uid) return;
    const me = await api.post<Me>('/api/me/privacy-acceptance');
    setLoaded({ uid, state: { status: 'ready', me } });
  }, [uid]);

  const value = useMemo<ProfileContextValue>(() => {
    const state: ProfileState = !uid
      ? { status: 'signed-out' }
      : loaded?.uid === uid
        ? loaded.state
        : { status: 'loading' };
    return { state, me: state.status === 'ready' ? state.me : null, refresh, acceptTerms };
  }, [uid, loaded, refresh, acceptTerms]);
  return <ProfileContext.Provider value={value}>{children}</ProfileContext.Provider>;
}

export function useProfile(): ProfileContextValue {
  const ctx = useContext(ProfileContext);
  if (!ctx) throw new Error('useProfile outside ProfileProvider');
  return ctx;
}

/** For tests and previews: provide a fixed profile. */
export function StaticProfileProvider({ value, children }: { value: ProfileContextValue; children: ReactNode }) {
  return <ProfileContext.Provider value={value}>{children}</ProfileContext.Provider>;
}
