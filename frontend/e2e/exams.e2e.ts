import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, signInThroughPopup, watchErrors } from './browser';

const base = inject('baseUrl');
let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];

beforeAll(async () => {
  browser = await launch();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  errors = watchErrors(page);
  await page.goto(base + '/');
  await signInThroughPopup(page, 'e2e.exams@example.com', () => page.getByRole('button', { name: 'Login' }).click());
  const terms = page.getByRole('dialog', { name: 'Privacy Policy and Terms of Use' });
  await terms.getByRole('button', { name: 'Accept' }).click();
  await terms.waitFor({ state: 'detached' });
});
afterAll(async () => {
  await browser.close();
});

/** Calls the API as the signed-in page would, with its token. */
function apiStatus(path: string): Promise<number> {
  return page.evaluate(async (p) => {
    let token = '';
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key?.startsWith('oidc.user:')) token = (JSON.parse(localStorage.getItem(key) ?? '{}') as { id_token: string }).id_token;
    }
    const res = await fetch(p, { headers: { Authorization: `Bearer ${token}` } });
    return res.status;
  }, path);
}

describe('reading and listening exams for a free user', () => {
  it('shows test 2 as locked, and its API answers 403', async () => {
    await page.goto(base + '/section/reading');
    await page.getByRole('link', { name: 'Reading Test 1', exact: true }).waitFor();
    await page.getByText('Reading Test 2 (Subscribe to unlock)').waitFor();
    expect(await page.getByRole('link', { name: /^Reading Test 2/ }).count()).toBe(0);
    expect(await apiStatus('/api/tests/reading/2')).toBe(403);
    expect(await apiStatus('/api/tests/listening/2')).toBe(403);
  });

  it('takes reading test 1: answers, navigates, survives a reload, finishes, reviews', async () => {
    await page.getByRole('link', { name: 'Reading Test 1', exact: true }).click();
    await page.getByText('Question 1 of 40').waitFor();
    await page.getByRole('radio').nth(1).check();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Question 2 of 40').waitFor();
    await page.getByRole('radio').nth(2).check();
    await page.getByRole('button', { name: 'Question 5, unanswered' }).click();
    await page.getByText('Question 5 of 40').waitFor();
    await page.getByRole('radio').nth(0).check();

    await page.reload();
    await page.getByText('Question 5 of 40').waitFor();
    expect(await page.getByRole('radio').nth(0).isChecked()).toBe(true);
    expect(await page.getByRole('button', { name: /^Question \d+, answered$/ }).count()).toBe(3);
    await page.getByRole('button', { name: 'Question 1, answered' }).click();
    await page.getByText('Question 1 of 40').waitFor();
    expect(await page.getByRole('radio').nth(1).isChecked()).toBe(true);

    await page.getByRole('button', { name: 'Question 40, unanswered' }).click();
    await page.getByRole('button', { name: 'Finish' }).click();
    const confirm = page.getByRole('dialog');
    await confirm.getByText(/37 unanswered questions/).waitFor();
    await confirm.getByRole('button', { name: /Finish/ }).click();

    await page.getByRole('heading', { name: 'Your Test Results' }).waitFor();
    await page.getByText(/Your performance exceeds \d+% of the people conducting the test here!/).waitFor();
    await page.getByText('CLB 3 or below').first().waitFor();
    expect(await page.getByText('No answer').count()).toBeGreaterThanOrEqual(37);
    await page.getByRole('button', { name: 'Back to Reading Selection' }).or(page.getByRole('link', { name: 'Back to Reading Selection' })).waitFor();
  });

  it('plays listening audio once', async () => {
    await page.goto(base + '/quiz/listening/1');
    await page.getByText('Question 1 of 40').waitFor();
    await page.getByRole('button', { name: /^Play/ }).click();
    // The recording really plays: the page's audio element advances.
    await expect
      .poll(() => page.evaluate(() => document.querySelector('audio')?.currentTime ?? 0), { timeout: 20_000 })
      .toBeGreaterThan(0.5);
    await page.getByText('Played', { exact: true }).first().waitFor({ timeout: 30_000 });
    expect(await page.getByRole('button', { name: /^Play/ }).count()).toBe(0);
  });

  it('shows the new point in the tracker', async () => {
    await page.goto(base + '/results-tracker');
    await page.getByRole('heading', { name: 'Your CLB Progress Tracker' }).waitFor();
    await page.getByText('Compréhension Écrite').waitFor();
    await page.getByText('Latest: CLB 3').first().waitFor();
    await page.getByText('No results available for this section yet. Keep practicing!').first().waitFor();
    expect(errors).toEqual([]);
  });
});
