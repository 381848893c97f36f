/**
 * Reading and listening exams for a free user, in the browser against the real server. Each
 * test sets up what it needs (its own navigation, its own attempt), so any one runs alone.
 */
import type { Browser, BrowserContext, Dialog, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
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

// No test inherits an attempt in progress from another: each starts its own.
beforeEach(async () => {
  errors.length = 0;
  await page.evaluate(() => {
    for (const key of Object.keys(localStorage)) if (key.startsWith('tef.quiz.')) localStorage.removeItem(key);
  });
});

/** Calls the API as the signed-in page would, with its token. */
function callApi(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      let token = '';
      for (let i = 0; i < localStorage.length; i++) {
        const key = localStorage.key(i);
        if (key?.startsWith('oidc.user:')) token = (JSON.parse(localStorage.getItem(key) ?? '{}') as { id_token: string }).id_token;
      }
      const res = await fetch(path, {
        method,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, json: (await res.json()) as unknown };
    },
    { method, path, body },
  );
}

/** The recording's position in the page's audio element, in seconds. */
const audioTime = () => page.evaluate(() => document.querySelector('audio')?.currentTime ?? 0);

describe('reading and listening exams for a free user', () => {
  it('shows test 2 as locked, and its API answers 403', async () => {
    await page.goto(base + '/section/reading');
    await page.getByRole('link', { name: 'Reading Test 1', exact: true }).waitFor();
    await page.getByText('Reading Test 2 (Subscribe to unlock)').waitFor();
    expect(await page.getByRole('link', { name: /^Reading Test 2/ }).count()).toBe(0);
    expect((await callApi('GET', '/api/tests/reading/2')).status).toBe(403);
    expect((await callApi('GET', '/api/tests/listening/2')).status).toBe(403);
  });

  it('takes reading test 1: answers, navigates, survives a reload, continues from the list, finishes, reviews', async () => {
    await page.goto(base + '/section/reading');
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

    // The list offers to continue the attempt, which comes back where it was.
    await page.goto(base + '/section/reading');
    await page.getByRole('link', { name: 'Continue Reading Test 1' }).click();
    await page.getByText('Question 5 of 40').waitFor();
    await page.getByRole('button', { name: 'Question 1, answered' }).click();
    await page.getByText('Question 1 of 40').waitFor();
    expect(await page.getByRole('radio').nth(1).isChecked()).toBe(true);

    await page.getByRole('button', { name: 'Question 40, unanswered' }).click();
    await page.getByRole('button', { name: 'Finish' }).click();
    const confirm = page.getByRole('dialog');
    await confirm.getByText(/37 unanswered questions/).waitFor();
    await confirm.getByRole('button', { name: /Finish/ }).click();

    await page.getByRole('heading', { name: 'Your Test Results' }).waitFor();
    await page.getByText('CLB 3 or below').first().waitFor();
    expect(await page.getByText('No answer').count()).toBeGreaterThanOrEqual(37);
    expect(await page.getByText(/^Time ran out/).count()).toBe(0);
    // No comparison with other learners before 30 first attempts exist (decisions §5).
    await page.getByText(/^You answered \d+% of the questions correctly\.$/).waitFor();
    expect(await page.getByText(/Your performance exceeds/).count()).toBe(0);
    await page.getByRole('link', { name: 'Back to Reading Selection' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('listening: a sound check first; a playing recording asks before moving away, and resumes after a reload', async () => {
    await page.goto(base + '/quiz/listening/1');
    await page.getByRole('heading', { name: 'Check your sound' }).waitFor();
    await page.getByRole('button', { name: 'Play the test sound' }).click();
    await page.getByRole('button', { name: 'Play it again' }).waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Start the test' }).click();

    await page.getByText('Question 1 of 40').waitFor();
    await page.getByRole('button', { name: /^Play/ }).click();
    // The recording really plays: the page's audio element advances.
    await expect.poll(audioTime, { timeout: 20_000 }).toBeGreaterThan(1);

    // Next and an in-app link ask first; staying keeps the recording playing.
    await page.getByRole('button', { name: 'Next' }).click();
    const stop = page.getByRole('dialog', { name: 'Stop the recording?' });
    await stop.getByRole('button', { name: 'Keep listening' }).click();
    await stop.waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Home', exact: true }).first().click();
    const leave = page.getByRole('dialog', { name: 'Leave the test?' });
    await leave.getByRole('button', { name: 'Keep listening' }).click();
    await leave.waitFor({ state: 'detached' });
    expect(page.url()).toBe(base + '/quiz/listening/1');
    const before = await audioTime();
    await expect.poll(audioTime).toBeGreaterThan(before);

    // Reloading asks too (the browser's own dialog); once reloaded, the recording resumes where it stopped.
    const asked: string[] = [];
    const onDialog = (d: Dialog) => {
      asked.push(d.type());
      void d.accept();
    };
    page.on('dialog', onDialog);
    await page.reload();
    page.off('dialog', onDialog);
    expect(asked).toEqual(['beforeunload']);
    await page.getByText('Question 1 of 40').waitFor();
    await page.getByText(/^The recording stopped at \d:\d\d\. Resume it from there/).waitFor();
    expect(await page.getByRole('button', { name: 'Recording played' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(audioTime, { timeout: 20_000 }).toBeGreaterThan(before);
    await page.getByRole('button', { name: 'Recording played' }).waitFor({ timeout: 60_000 });
    // Ended: moving on needs no confirmation.
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Question 2 of 40').waitFor();
    expect(errors).toEqual([]);
  });

  it('opens a result on reload and from the tracker’s Review link in a new tab', async () => {
    // Its own attempt: nothing answered, and the whole time limit used.
    const submitted = await callApi('POST', '/api/tests/reading/1/attempts', { answers: Array.from({ length: 40 }, () => null), durationSeconds: 3600 });
    expect(submitted.status).toBe(200);
    const resultId = (submitted.json as { resultId: string }).resultId;
    expect(resultId).toContain('.');

    await page.goto(`${base}/results/${encodeURIComponent(resultId)}`);
    await page.getByRole('heading', { name: 'Your Test Results' }).waitFor();
    await page.getByText('Time ran out: your answers were submitted as they stood when the clock reached 0:00.').waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Your Test Results' }).waitFor();
    await page.getByText('0 / 40 (0%)').waitFor();

    await page.goto(base + '/results-tracker');
    await page.getByRole('heading', { name: 'Your CLB Progress Tracker' }).waitFor();
    await page.getByText('Compréhension Écrite').waitFor();
    const review = page.locator(`a[href="/results/${encodeURIComponent(resultId)}"]`).first();
    await review.waitFor();
    expect(await review.textContent()).toContain('Review');
    const [tab] = await Promise.all([context.waitForEvent('page'), review.click({ modifiers: ['ControlOrMeta'] })]);
    const tabErrors = watchErrors(tab);
    await tab.getByRole('heading', { name: 'Your Test Results' }).waitFor();
    await tab.getByText('0 / 40 (0%)').waitFor();
    expect(tab.url()).toBe(`${base}/results/${encodeURIComponent(resultId)}`);
    await tab.close();
    expect([...errors, ...tabErrors]).toEqual([]);
  });
});
