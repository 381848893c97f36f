/**
 * Identity-service failures, mapped to the readable codes the spec lists (§8).
 * The user is signed out on 'user-disabled' and 'user-token-expired'.
 */
export const AUTH_ERROR_CODES = [
  'wrong-password',
  'missing-password',
  'invalid-email',
  'email-already-in-use',
  'user-not-found',
  'too-many-requests',
  'user-disabled',
  'operation-not-allowed',
  'expired-action-code',
  'invalid-action-code',
  'invalid-user-token',
  'user-token-expired',
  'requires-recent-login',
  'invalid-credential',
  'multi-factor-auth-required',
  'network-request-failed',
  'popup-closed-by-user',
  'popup-blocked',
  'internal-error',
] as const;

export type AuthErrorCode = (typeof AUTH_ERROR_CODES)[number];

const SIGN_OUT_CODES: ReadonlySet<AuthErrorCode> = new Set(['user-disabled', 'user-token-expired']);

export function shouldSignOut(code: AuthErrorCode): boolean {
  return SIGN_OUT_CODES.has(code);
}

interface ErrorLike {
  name?: unknown;
  message?: unknown;
  error?: unknown;
  error_description?: unknown;
}

/** Maps an oidc-client-ts error (or any thrown value) to a readable code. */
export function mapAuthError(err: unknown): AuthErrorCode {
  const e = (typeof err === 'object' && err !== null ? err : {}) as ErrorLike;
  const message = typeof e.message === 'string' ? e.message.toLowerCase() : String(err).toLowerCase();
  const oauth = typeof e.error === 'string' ? e.error : '';
  const description = typeof e.error_description === 'string' ? e.error_description.toLowerCase() : '';

  if (message.includes('popup closed') || message.includes('popup window closed')) return 'popup-closed-by-user';
  if (message.includes('error opening popup') || message.includes('popup blocked')) return 'popup-blocked';
  if (description.includes('disabled') || message.includes('user is disabled')) return 'user-disabled';
  switch (oauth) {
    case 'invalid_grant':
    case 'login_required':
      return 'user-token-expired';
    case 'access_denied':
    case 'unauthorized_client':
    case 'unsupported_response_type':
      return 'operation-not-allowed';
    case 'invalid_request':
    case 'invalid_client':
    case 'invalid_scope':
      return 'invalid-credential';
    case 'invalid_token':
      return 'invalid-user-token';
    case 'temporarily_unavailable':
    case 'slow_down':
      return 'too-many-requests';
    case 'interaction_required':
    case 'consent_required':
      return 'requires-recent-login';
    default:
      break;
  }
  if (
    e.name === 'TypeError' ||
    e.name === 'AbortError' ||
    message.includes('network') ||
    message.includes('failed to fetch') ||
    message.includes('timed out') ||
    message.includes('timeout')
  ) {
    return 'network-request-failed';
  }
  return 'internal-error';
}
