import { describe, expect, it, vi } from 'vitest';
import { testConfig } from '@/test/render';
import { User } from 'oidc-client-ts';
import { authLoader } from './loader';

describe('authLoader', () => {
  it('sees a session exactly when oidc-client-ts has stored one', async () => {
    window.localStorage.clear();
    const loader = authLoader(testConfig);
    expect(loader.hasSession()).toBe(false);
    const manager = await loader.load();
    const user = new User({
      id_token: 'id',
      access_token: 'access',
      token_type: 'Bearer',
      profile: { sub: 'sub-1', iss: testConfig.auth.authority, aud: 'tef-local', exp: 4102444800, iat: 0 },
    });
    await manager.storeUser(user);
    expect(loader.hasSession()).toBe(true);
    await manager.removeUser();
    expect(loader.hasSession()).toBe(false);
  });

  it('loads the library once', async () => {
    const loader = authLoader(testConfig);
    const [a, b] = await Promise.all([loader.load(), loader.load()]);
    expect(a).toBe(b);
    expect(a.settings.client_id).toBe('tef-local');
  });

  it("leaves for the provider's sign-out page when the config names one", () => {
    const go = vi.fn();
    authLoader(testConfig, window.localStorage, go).leave();
    expect(go).not.toHaveBeenCalled();
    const logoutUrl = 'https://auth.example.com/logout?client_id=x&logout_uri=https%3A%2F%2Fapp.example.com%2F';
    authLoader({ ...testConfig, auth: { ...testConfig.auth, logoutUrl } }, window.localStorage, go).leave();
    expect(go).toHaveBeenCalledWith(logoutUrl);
  });
});
