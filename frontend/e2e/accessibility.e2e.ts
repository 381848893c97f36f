/**
 * axe-core on every page, signed out and signed in: no serious or critical violation.
 * axe is injected into the page, so this context alone bypasses the content security policy
 * (the other suites enforce it).
 */
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, signInThroughPopup } from './browser';

const base = inject('baseUrl');
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/** The serious and critical violations on the page as it is now, one line each. */
async function audit(page: Page, label: string): Promise<string[]> {
  // And whatever still moves has finished (bounded: a spinner may turn for ever).
  await page
    .waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, { timeout: 3_000 })
    .catch(() => undefined);
  await page.addScriptTag({ path: axePath });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<{ violations: Violation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${label}: ${v.id} (${v.impact}) ${v.help}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
}

async function visit(page: Page, path: string, ready: () => Promise<unknown>): Promise<string[]> {
  await page.goto(base + path);
  await ready();
  await page.waitForLoadState('networkidle');
  return audit(page, path);
}

describe('accessibility (axe-core)', () => {
  it('has no serious or critical violation on any page, signed out or in', async () => {
    // Reduced motion (the app's CSS honours it): axe measures colours at rest, never halfway
    // through a dialog's fade-in, which reads as low contrast.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true, reducedMotion: 'reduce' });
    const page = await context.newPage();
    const found: string[] = [];

    // Signed out.
    found.push(...(await visit(page, '/', () => page.getByRole('heading', { name: 'Prepare for Your TEF Exam with Confidence' }).waitFor())));
    found.push(...(await visit(page, '/dashboard', () => page.getByText('You must be logged in to access that page.').waitFor())));
    found.push(...(await visit(page, '/no/such/page', () => page.getByRole('heading', { name: 'Page Not Found' }).waitFor())));

    // The terms dialog, then every signed-in page.
    await page.goto(base + '/');
    await signInThroughPopup(page, 'e2e.axe@example.com', () => page.getByRole('button', { name: 'Login' }).click());
    const terms = page.getByRole('dialog', { name: 'Privacy Policy and Terms of Use' });
    await terms.waitFor();
    found.push(...(await audit(page, 'terms dialog')));
    await terms.getByRole('button', { name: 'Accept' }).click();
    await terms.waitFor({ state: 'detached' });

    found.push(...(await visit(page, '/dashboard', () => page.getByRole('heading', { level: 1 }).first().waitFor())));
    for (const category of ['reading', 'listening', 'writing', 'speaking']) {
      found.push(...(await visit(page, `/section/${category}`, () => page.getByRole('heading', { level: 1 }).first().waitFor())));
    }
    found.push(...(await visit(page, '/quiz/reading/1', () => page.getByRole('button', { name: 'Question 1, unanswered' }).waitFor())));
    found.push(...(await visit(page, '/writing/luckyFind', () => page.getByRole('heading', { name: 'TEF CANADA - EXPRESSION ÉCRITE' }).waitFor())));
    found.push(...(await visit(page, '/speaking/serviceCoursLangue', () => page.getByRole('heading', { level: 1 }).first().waitFor())));
    found.push(...(await visit(page, '/results-tracker', () => page.getByRole('heading', { level: 1 }).first().waitFor())));

    // A result's review: an attempt submitted as the quiz does, with the page's own token.
    const resultId = await page.evaluate(async () => {
      const key = Object.keys(localStorage).find((k) => k.startsWith('oidc.user:')) ?? '';
      const token = (JSON.parse(localStorage.getItem(key) ?? '{}') as { id_token?: string }).id_token ?? '';
      const res = await fetch('/api/tests/reading/1/attempts', {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ answers: Array.from({ length: 40 }, (_, i) => (i < 20 ? i % 4 : null)), durationSeconds: 900 }),
      });
      return ((await res.json()) as { resultId?: string }).resultId ?? '';
    });
    expect(resultId).not.toBe('');
    found.push(...(await visit(page, `/results/${resultId}`, () => page.getByRole('heading', { level: 1 }).first().waitFor())));

    expect(found).toEqual([]);
    await context.close();
  }, 180_000);

  it('takes a whole quiz with the keyboard alone', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(base + '/');
    await signInThroughPopup(page, 'e2e.keyboard@example.com', () => page.getByRole('button', { name: 'Login' }).click());
    const terms = page.getByRole('dialog', { name: 'Privacy Policy and Terms of Use' });
    await terms.getByRole('button', { name: 'Accept' }).focus();
    await page.keyboard.press('Enter');
    await terms.waitFor({ state: 'detached' });

    /** What has the focus: its role (or tag) and its name. */
    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el) return '';
        const role = el.getAttribute('role') ?? (el instanceof HTMLInputElement ? el.type : el.tagName.toLowerCase());
        const name = el.getAttribute('aria-label') ?? el.textContent.trim();
        return `${role}: ${name}`;
      });
    /** Presses Tab until the focus is on what `wanted` matches (at most 150 presses). */
    const tabTo = async (wanted: RegExp) => {
      for (let i = 0; i < 150; i++) {
        if (wanted.test(await focused())) return;
        await page.keyboard.press('Tab');
      }
      throw new Error(`Tab never reached ${wanted}; focus is on "${await focused()}"`);
    };

    await page.goto(base + '/quiz/reading/1');
    await page.getByText('Question 1 of 40').waitFor();
    await tabTo(/^radio/);
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowDown');
    expect(await page.getByRole('radio', { checked: true }).count()).toBe(1);
    await tabTo(/^button: Next$/);
    await page.keyboard.press('Enter');
    await page.getByText('Question 2 of 40').waitFor();
    await tabTo(/^button: Question 40, unanswered$/);
    await page.keyboard.press('Enter');
    await page.getByText('Question 40 of 40').waitFor();
    await tabTo(/^radio/);
    await page.keyboard.press('Space');
    await tabTo(/^button: Finish$/);
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog');
    await confirm.getByText(/38 unanswered questions/).waitFor();
    await tabTo(/^button: .*Finish/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Your Test Results' }).waitFor();
    await context.close();
  }, 120_000);
});
