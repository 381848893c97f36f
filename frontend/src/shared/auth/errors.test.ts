import { describe, expect, it } from 'vitest';
import { mapAuthError, shouldSignOut } from './errors';

describe('mapAuthError', () => {
  it('recognises a popup the user closed', () => {
    expect(mapAuthError(new Error('Popup closed by user'))).toBe('popup-closed-by-user');
  });

  it('maps OAuth error codes to readable codes', () => {
    expect(mapAuthError({ error: 'invalid_grant' })).toBe('user-token-expired');
    expect(mapAuthError({ error: 'access_denied' })).toBe('operation-not-allowed');
    expect(mapAuthError({ error: 'invalid_token' })).toBe('invalid-user-token');
    expect(mapAuthError({ error: 'temporarily_unavailable' })).toBe('too-many-requests');
    expect(mapAuthError({ error: 'interaction_required' })).toBe('requires-recent-login');
    expect(mapAuthError({ error: 'invalid_client' })).toBe('invalid-credential');
  });

  it('recognises a disabled user from the description', () => {
    expect(mapAuthError({ error: 'invalid_request', error_description: 'User is disabled.' })).toBe('user-disabled');
  });

  it('recognises network failures', () => {
    expect(mapAuthError(new TypeError('Failed to fetch'))).toBe('network-request-failed');
    expect(mapAuthError(new Error('Request timed out'))).toBe('network-request-failed');
  });

  it('falls back to internal-error', () => {
    expect(mapAuthError('weird')).toBe('internal-error');
    expect(mapAuthError(null)).toBe('internal-error');
  });
});

describe('shouldSignOut', () => {
  it('signs out on user-disabled and user-token-expired only', () => {
    expect(shouldSignOut('user-disabled')).toBe(true);
    expect(shouldSignOut('user-token-expired')).toBe(true);
    expect(shouldSignOut('network-request-failed')).toBe(false);
    expect(shouldSignOut('popup-closed-by-user')).toBe(false);
  });
});
