/**
 * A learner's walk at 390 px (issue 10): the terms modal opens at its title, the dashboard names the
 * plan, the tracker's session rows and single-session chart read well, and a direct visit to a lazy
 * page leaves the console clean. Each test signs in its own user.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, signInThroughPopup, watchErrors } from './browser';
import { tefLocal } from './global-setup';

const base = inject('baseUrl');
const env = inject('serverEnv');
const PHONE = { width: 390, height: 844 };
let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

async function phone(): Promise<{ context: BrowserContext; page: Page; console: string[]; errors: string[] }> {
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  const messages: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'warning' || m.type() === 'error') messages.push(`${m.type()}: ${m.text()}`);
  });
  return { context, page, console: messages, errors: watchErrors(page) };
}

/** Signs in from the folded navbar; the terms modal is left open. */
async function signIn(page: Page, email: string) {
  await page.goto(base + '/');
  await page.getByRole('button', { name: 'Toggle navigation' }).click();
  await signInThroughPopup(page, email, () => page.getByRole('button', { name: 'Login' }).click());
  const terms = page.getByRole('dialog', { name: 'Privacy Policy and Terms of Use' });
  await terms.waitFor();
  return terms;
}

async function accept(page: Page) {
  const terms = page.getByRole('dialog', { name: 'Privacy Policy and Terms of Use' });
  await terms.getByRole('button', { name: 'Accept' }).click();
  await terms.waitFor({ state: 'detached' });
}

describe('at 390 px', () => {
  it('opens the terms at their title, focused, then names the granted plan on the dashboard', async () => {
    const { context, page, errors } = await phone();
    const email = 'walk.phone.monthly@example.com';
    const terms = await signIn(page, email);
    const heading = terms.getByRole('heading', { name: 'Privacy Policy and Terms of Use' });
    expect(await heading.evaluate((h) => h === document.activeElement)).toBe(true);
    expect(await terms.evaluate((d) => d.scrollTop)).toBe(0);
    const box = await heading.boundingBox();
    expect(box).not.toBeNull();
    expect(box?.y ?? -1).toBeGreaterThanOrEqual(0);
    expect((box?.y ?? 0) + (box?.height ?? PHONE.height)).toBeLessThanOrEqual(PHONE.height);
    await accept(page);

    tefLocal(env, 'grant', email, 'monthly');
    // A page opened directly starts at its top, whatever the scroll of the page before it.
    await page.evaluate(() => window.scrollTo(0, 1500));
    await page.goto(base + '/dashboard');
    const card = page.getByRole('article', { name: 'Subscription' });
    await card.getByText('1 Month', { exact: true }).waitFor();
    expect(await card.getByText('monthly', { exact: true }).count()).toBe(0);
    expect(await page.title()).toBe('My Dashboard · TEF Canada Practice');
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    // The address wraps only between its parts (after '@', before a dot): each part stays on one line.
    const linesPerPart = await card.locator('.email').evaluate((el) =>
      Array.from(el.childNodes)
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => {
          const range = document.createRange();
          range.selectNodeContents(n);
          return new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top))).size;
        }),
    );
    expect(linesPerPart.length).toBeGreaterThan(1);
    expect(linesPerPart.every((lines) => lines === 1)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('draws a single session as a visible point, with the date clear of the CLB', async () => {
    const { context, page } = await phone();
    await signIn(page, 'walk.phone.tracker@example.com');
    await accept(page);
    const status = await page.evaluate(async () => {
      const key = Object.keys(localStorage).find((k) => k.startsWith('oidc.user:')) ?? '';
      const { id_token: token } = JSON.parse(localStorage.getItem(key) ?? '{}') as { id_token?: string };
      const res = await fetch('/api/tests/reading/1/attempts', {
        method: 'POST',
        headers: { Authorization: `Bearer ${token ?? ''}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ answers: Array.from({ length: 40 }, () => 0), durationSeconds: 900 }),
      });
      return res.status;
    });
    expect(status).toBe(200);

    await page.goto(base + '/results-tracker');
    const reading = page.getByRole('article', { name: 'Compréhension Écrite' });
    const dot = reading.locator('.recharts-line-dot');
    await dot.waitFor();
    expect(await dot.count()).toBe(1);
    const chart = await reading.locator('.tracker-chart').boundingBox();
    const point = await dot.boundingBox();
    expect(point && chart).toBeTruthy();
    if (point && chart) {
      expect(point.width).toBeGreaterThan(8);
      expect(point.x).toBeGreaterThan(chart.x);
      expect(point.x + point.width).toBeLessThan(chart.x + chart.width);
    }
    // Where the texts are drawn (a cell's box stays in its column while its text may overflow it).
    const [date, clb] = await reading.locator('li').first().evaluate((row) =>
      (['.tracker-session-date', '.tracker-session-clb'] as const).map((selector) => {
        const range = document.createRange();
        range.selectNodeContents(row.querySelector(selector) as Element);
        const r = range.getBoundingClientRect();
        return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      }),
    );
    const apart = date.right <= clb.left || clb.right <= date.left || date.bottom <= clb.top || clb.bottom <= date.top;
    expect(apart, `date ${JSON.stringify(date)} and CLB ${JSON.stringify(clb)} overlap`).toBe(true);
    await context.close();
  });

  it('loads a lazy page directly with a clean console and its own title', async () => {
    const { context, page, console: messages, errors } = await phone();
    await page.goto(base + '/zoom');
    await page.getByRole('heading', { level: 1, name: 'Read every detail of a document' }).waitFor();
    expect(await page.title()).toBe('Image Zoom · TEF Canada Practice');
    expect(messages).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
