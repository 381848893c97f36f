/**
 * A subscriber takes each of the ten reading and ten listening papers end to end in
 * the browser: each test opens from its section, every question shows four
 * options, every image decodes, every recording loads to the point of being
 * playable, and finishing shows the results with all 40 questions reviewed.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, signInThroughPopup, watchErrors } from './browser';
import { tefLocal } from './global-setup';

const base = inject('baseUrl');
const EMAIL = 'e2e.subscriber@example.com';
let browser: Browser;
let page: Page;
let errors: string[];

beforeAll(async () => {
  browser = await launch();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  errors = watchErrors(page);
  await page.goto(base + '/');
  await signInThroughPopup(page, EMAIL, () => page.getByRole('button', { name: 'Login' }).click());
  const terms = page.getByRole('dialog', { name: 'Privacy Policy and Terms of Use' });
  await terms.getByRole('button', { name: 'Accept' }).click();
  await terms.waitFor({ state: 'detached' });
  tefLocal(inject('serverEnv'), 'grant', EMAIL, 'monthly');
});
afterAll(async () => {
  await browser.close();
});

interface Listed {
  id: number;
  title: string;
  locked: boolean;
  available: boolean;
}

/** The paper's catalogue, as the signed-in page sees it. */
function catalogue(paper: string): Promise<Listed[]> {
  return page.evaluate(async (p) => {
    let token = '';
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key?.startsWith('oidc.user:')) token = (JSON.parse(localStorage.getItem(key) ?? '{}') as { id_token: string }).id_token;
    }
    const res = await fetch(`/api/tests/${p}`, { headers: { Authorization: `Bearer ${token}` } });
    return ((await res.json()) as { tests: Listed[] }).tests;
  }, paper);
}

/** Widths of the question's images once decoded (0 for one that failed). */
function decodedImageWidths(): Promise<number[]> {
  return page.evaluate(() =>
    Promise.all(
      Array.from(document.querySelectorAll('main img')).map(async (node) => {
        const img = node as HTMLImageElement;
        img.loading = 'eager';
        try {
          await img.decode();
          return img.naturalWidth;
        } catch {
          return 0;
        }
      }),
    ),
  );
}

async function takePaper(paper: 'reading' | 'listening', label: string, test: Listed): Promise<void> {
  await page.goto(`${base}/section/${paper}`);
  await page.getByRole('link', { name: test.title, exact: true }).click();
  // A listening paper opens on its sound check; the clock starts with the test.
  if (paper === 'listening') await page.getByRole('button', { name: 'Start the test' }).click();
  for (let n = 1; n <= 40; n++) {
    await page.getByText(`Question ${n} of 40`).waitFor();
    const at = `${label} ${test.id} Q${n}`;
    expect(await page.getByRole('radio').count(), at).toBe(4);
    for (const width of await decodedImageWidths()) expect(width, `${at}: an image did not load`).toBeGreaterThan(0);
    if (paper === 'listening') {
      // The Play button is enabled only once the browser has loaded the recording.
      await expect.poll(() => page.getByRole('button', { name: /^Play/ }).isEnabled(), { message: `${at}: audio`, timeout: 15_000 }).toBe(true);
    }
    await page.getByRole('radio').nth(n % 4).check();
    await page.getByRole('button', { name: n === 40 ? 'Finish' : 'Next' }).click();
  }
  await page.getByRole('heading', { name: 'Your Test Results' }).waitFor();
  await page.getByText(/CLB/).first().waitFor();
  expect(await page.getByText('No answer').count(), `${label} ${test.id}`).toBe(0);
}

describe('a subscriber takes every published paper', () => {
  for (const [paper, label] of [
    ['reading', 'Reading'],
    ['listening', 'Listening'],
  ] as const) {
    it(`opens and finishes every ${paper} test`, { timeout: 15 * 60_000 }, async () => {
      const tests = await catalogue(paper);
      expect(tests.map((t) => t.title)).toEqual(Array.from({ length: 10 }, (_, i) => `${label} Test ${i + 1}`));
      expect(tests.every((t) => !t.locked)).toBe(true);
      expect(tests.filter((t) => !t.available).map((t) => t.title)).toEqual([]);
      for (const test of tests) await takePaper(paper, label, test);
      expect(errors).toEqual([]);
    });
  }
});
