export { AuthProvider, StaticAuthProvider, useAuth, type AuthContextValue, type AuthUser } from './AuthProvider';
export { AUTH_ERROR_CODES, mapAuthError, shouldSignOut, type AuthErrorCode } from './errors';
export { authLoader, storedUserKey, type AuthLoader } from './loader';
export { rememberRedirect, takeRedirect } from './redirect';
