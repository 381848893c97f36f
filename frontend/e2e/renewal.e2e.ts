import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, signInThroughPopup } from './browser';
import { startServer, type RunningServer } from './global-setup';

// Tokens that live 5 min 12 s: the app must renew them 5 minutes before expiry, so after ~12 s.
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer({ TEF_AUTH_TOKEN_TTL_SECONDS: '312' }, false);
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
  server.stop();
});

function storedIdToken(): string | null {
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key?.startsWith('oidc.user:')) {
      const user = JSON.parse(localStorage.getItem(key) ?? '{}') as { id_token?: string };
      return user.id_token ?? null;
    }
  }
  return null;
}

describe('silent renewal', () => {
  it('renews the token 5 minutes before it expires, without a popup', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(server.baseUrl + '/dashboard');
    await signInThroughPopup(page, 'renewal@example.com', () => page.getByRole('button', { name: 'Login' }).first().click());
    // The opener exchanges the code after the popup closes: wait until it is signed in.
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    const first = await page.evaluate(storedIdToken);
    expect(first).toBeTruthy();
    await expect
      .poll(() => page.evaluate(storedIdToken), { timeout: 40_000, interval: 1_000 })
      .not.toBe(first);
    const renewed = await page.evaluate(storedIdToken);
    expect(renewed).toBeTruthy();
    expect(renewed).not.toBe(first);
    // Still signed in, and the server accepts the new token: GET /api/me answers with this user.
    expect(await page.getByRole('button', { name: 'Logout' }).isVisible()).toBe(true);
    const me = await page.evaluate(async (token) => {
      const res = await fetch('/api/me', { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } });
      return { status: res.status, body: (await res.json()) as { email?: string } };
    }, renewed ?? '');
    expect(me.status).toBe(200);
    expect(me.body.email).toBe('renewal@example.com');
    await context.close();
  }, 60_000);
});
