import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, signInThroughPopup, watchErrors } from './browser';

const base = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

async function newPage(): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  return { context, page, errors: watchErrors(page) };
}

describe('signed out', () => {
  it('shows the landing page, without loading the sign-in library', async () => {
    const { context, page, errors } = await newPage();
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    await page.goto(base + '/');
    await expect.poll(() => page.getByRole('heading', { name: 'Prepare for Your TEF Exam with Confidence' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Results', exact: true }).count()).toBe(0);
    expect(errors).toEqual([]);
    await page.waitForLoadState('networkidle');
    expect(scripts.some((s) => s.includes('/assets/main-'))).toBe(true);
    // oidc-client-ts is loaded on sign-in or to restore a stored session, never for a visitor.
    expect(scripts.filter((s) => s.includes('oidc'))).toEqual([]);
    await context.close();
  });

  it('paints the landing hero before any script runs, and no other page does', async () => {
    // Scripts off: what the browser paints from index.html alone.
    const context = await browser.newContext({ viewport: { width: 412, height: 823 }, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(base + '/');
    expect(await page.getByRole('heading', { name: 'Prepare for Your TEF Exam with Confidence' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Try a free test' }).isVisible()).toBe(true);
    // A client route gets the empty shell: never the landing's hero before the page it asked for.
    await page.goto(base + '/dashboard');
    expect(await page.locator('#root').innerHTML()).toBe('');
    await context.close();
  });

  it('redirects a guarded route to the landing page', async () => {
    const { context, page } = await newPage();
    await page.goto(base + '/section/reading');
    await page.waitForURL(base + '/');
    await context.close();
  });

  it('shows the login-required wrapper on the dashboard', async () => {
    const { context, page } = await newPage();
    await page.goto(base + '/dashboard');
    await expect.poll(() => page.getByText('You must be logged in to access that page.').isVisible()).toBe(true);
    await context.close();
  });

  it('shows the 404 texts on an unknown path', async () => {
    const { context, page } = await newPage();
    await page.goto(base + '/no/such/page');
    await expect.poll(() => page.getByRole('heading', { name: 'Page Not Found' }).isVisible()).toBe(true);
    expect(await page.getByText("The page you're looking for doesn't exist.").isVisible()).toBe(true);
    await context.close();
  });
});

describe('signing in', () => {
  it('signs in through the popup, accepts the terms, uses the app and signs out', async () => {
    const { context, page, errors } = await newPage();
    await page.goto(base + '/');
    await signInThroughPopup(page, 'e2e.ana@example.com', () => page.getByRole('button', { name: 'Login' }).click());

    const terms = page.getByRole('dialog', { name: 'Privacy Policy and Terms of Use' });
    await terms.waitFor();
    await terms.getByRole('button', { name: 'Accept' }).click();
    await terms.waitFor({ state: 'detached' });

    await page.getByRole('link', { name: 'Results', exact: true }).first().waitFor();
    await page.getByRole('link', { name: 'Dashboard', exact: true }).first().click();
    await page.getByRole('heading', { name: 'My Dashboard' }).waitFor();
    await page.getByText('e2e.ana@example.com').waitFor();
    expect(await page.getByText('No Subscription').isVisible()).toBe(true);

    // The session and the acceptance survive a reload.
    await page.reload();
    await page.getByRole('heading', { name: 'My Dashboard' }).waitFor();
    await page.getByText('e2e.ana@example.com').waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);

    // Signing out revokes the refresh token at the provider and passes by its sign-out page.
    const stored = () =>
      page.evaluate(() => {
        const key = Object.keys(localStorage).find((k) => k.startsWith('oidc.user:'));
        return key ? (JSON.parse(localStorage.getItem(key) ?? '{}') as { refresh_token?: string }).refresh_token ?? '' : null;
      });
    const refreshToken = await stored();
    expect(refreshToken).toBeTruthy();
    const visited: string[] = [];
    page.on('request', (r) => {
      if (r.isNavigationRequest()) visited.push(new URL(r.url()).pathname);
    });
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('button', { name: 'Login' }).first().waitFor();
    expect(await page.getByRole('link', { name: 'Dashboard', exact: true }).count()).toBe(0);
    await expect.poll(() => visited).toContain('/auth/logout');
    expect(await stored()).toBeNull();
    const renewal = await page.request.post(base + '/auth/token', {
      form: { grant_type: 'refresh_token', client_id: 'tef-local', refresh_token: refreshToken ?? '' },
    });
    expect(renewal.status()).toBe(400);
    expect(((await renewal.json()) as { error: string }).error).toBe('invalid_grant');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('sends a visitor who picked a test to that test after signing in', async () => {
    const { context, page } = await newPage();
    await page.goto(base + '/#test-categories');
    const card = page.locator('#test-categories').getByRole('button', { name: /Listening/ }).first();
    await signInThroughPopup(page, 'e2e.bob@example.com', () => card.click());
    await page.waitForURL(base + '/section/listening');
    await page.getByRole('heading', { name: 'Listening Tests' }).waitFor();
    await context.close();
  });
});
