import type { UserManager } from 'oidc-client-ts';
import type { AppConfig } from '@/shared/config';

/**
 * How the app reaches the sign-in library without loading it up front: oidc-client-ts is
 * fetched only when there is a stored session to restore or when the user signs in, so the
 * landing page of a signed-out visitor loads none of it.
 */
export interface AuthLoader {
  /** Whether a session is stored (read without the library). */
  hasSession(): boolean;
  /** The user manager, loading the library on first call. */
  load(): Promise<UserManager>;
  /** Leaves the app for the provider's sign-out page, which comes back to the site; none: stay. */
  leave(): void;
}

/** The key oidc-client-ts stores a user under (`WebStorageStateStore`, prefix `oidc.`). */
export function storedUserKey(config: AppConfig): string {
  return `oidc.user:${config.auth.authority}:${config.auth.clientId}`;
}

export function authLoader(
  config: AppConfig,
  storage: Storage = window.localStorage,
  go: (url: string) => void = (url) => window.location.assign(url),
): AuthLoader {
  let manager: Promise<UserManager> | null = null;
  return {
    hasSession: () => storage.getItem(storedUserKey(config)) !== null,
    load: () => {
      manager ??= import('./oidc').then((m) => m.createUserManager(config));
      manager.catch(() => {
        manager = null; // a failed download can be retried
      });
      return manager;
    },
    leave: () => {
      if (config.auth.logoutUrl) go(config.auth.logoutUrl);
    },
  };
}
