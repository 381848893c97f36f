import { UserManager, WebStorageStateStore, type UserManagerSettings } from 'oidc-client-ts';
import type { AppConfig } from '@/shared/config';

/** The page the identity provider returns to, in the popup or during silent renewal. */
export const CALLBACK_PATH = '/auth-callback.html';

/** Seconds before expiry at which the token is renewed in the background (spec §9). */
export const RENEW_BEFORE_EXPIRY_S = 300;

function isMobile(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(pointer: coarse)').matches;
}

export function oidcSettings(config: AppConfig, origin = window.location.origin): UserManagerSettings {
  return {
    authority: config.auth.authority,
    client_id: config.auth.clientId,
    scope: config.auth.scope,
    response_type: 'code',
    redirect_uri: origin + CALLBACK_PATH,
    popup_redirect_uri: origin + CALLBACK_PATH,
    silent_redirect_uri: origin + CALLBACK_PATH,
    post_logout_redirect_uri: origin + '/',
    automaticSilentRenew: true,
    accessTokenExpiringNotificationTimeInSeconds: RENEW_BEFORE_EXPIRY_S,
    // Network time-out: 30 s on desktop, 60 s on mobile (spec §9).
    requestTimeoutInSeconds: isMobile() ? 60 : 30,
    popupWindowFeatures: { width: 480, height: 640, closePopupWindowAfterInSeconds: -1 },
    userStore: new WebStorageStateStore({ store: window.localStorage }),
    loadUserInfo: false,
  };
}

export function createUserManager(config: AppConfig): UserManager {
  return new UserManager(oidcSettings(config));
}
