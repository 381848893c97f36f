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
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
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
});
