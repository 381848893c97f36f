export { AuthProvider, StaticAuthProvider, useAuth, type AuthContextValue, type AuthUser } from './AuthProvider';
export { AUTH_ERROR_CODES, mapAuthError, shouldSignOut, type AuthErrorCode } from './errors';
export { createUserManager, oidcSettings, CALLBACK_PATH, RENEW_BEFORE_EXPIRY_S } from './oidc';
export { rememberRedirect, takeRedirect } from './redirect';
