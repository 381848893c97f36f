import { describe, expect, it } from 'vitest';
import { testConfig } from '@/test/render';
import { oidcSettings } from './oidc';

describe('oidcSettings', () => {
  it('uses the code flow in a popup and renews 5 minutes before expiry', () => {
    const s = oidcSettings(testConfig, 'http://127.0.0.1:8080');
    expect(s.authority).toBe('http://127.0.0.1:8080/auth');
    expect(s.client_id).toBe('tef-local');
    expect(s.response_type).toBe('code');
    expect(s.popup_redirect_uri).toBe('http://127.0.0.1:8080/auth-callback.html');
    expect(s.automaticSilentRenew).toBe(true);
    expect(s.accessTokenExpiringNotificationTimeInSeconds).toBe(300);
    expect(s.requestTimeoutInSeconds).toBe(30);
  });
});
