/**
 * Buying a plan, in the browser against the real local server and its test checkout (offline):
 * the Pay button delivers a signed webhook to the server, which fulfils the purchase. After the
 * payment page the app follows the new subscription without a reload.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, signInThroughPopup, watchErrors } from './browser';

const base = inject('baseUrl');
let browser: Browser;
let page: Page;
let errors: string[];

beforeAll(async () => {
  browser = await launch();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  errors = watchErrors(page);
  await page.goto(base + '/');
  await signInThroughPopup(page, 'e2e.purchase@example.com', () => page.getByRole('button', { name: 'Login' }).click());
  const terms = page.getByRole('dialog', { name: 'Privacy Policy and Terms of Use' });
  await terms.getByRole('button', { name: 'Accept' }).click();
  await terms.waitFor({ state: 'detached' });
});
afterAll(async () => {
  await browser.close();
});

/** The value next to a label on the dashboard's subscription card. */
const fact = (label: string) => page.locator('.subscription-facts > div', { has: page.getByText(label, { exact: true }) }).locator('dd');

describe('buying the 1-month plan', () => {
  it('a free user buys it through the local checkout, and everything paid opens at once', async () => {
    // Free: reading test 2 is locked.
    await page.goto(base + '/section/reading');
    await page.getByText('Reading Test 2 (Subscribe to unlock)').waitFor();
    expect(await page.getByRole('link', { name: /^Reading Test 2/ }).count()).toBe(0);

    // A first checkout, cancelled on the checkout page, comes back to /cancel and the plans.
    await page.goto(base + '/#pricing');
    await page.getByRole('button', { name: 'Get 1 Month' }).click();
    await page.waitForURL(/\/checkout\/cs_local_/);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('heading', { name: 'Purchase Cancelled' }).waitFor();
    await page.getByRole('link', { name: 'See the plans' }).click();

    // The real one: the local checkout page names the plan and the amount, and says it is a test.
    await page.getByRole('button', { name: 'Get 1 Month' }).click();
    await page.waitForURL(/\/checkout\/cs_local_/);
    const checkout = (await page.locator('body').innerText()).toLowerCase();
    expect(checkout).toContain('test checkout');
    expect(checkout).toContain('1 month');
    expect(checkout).toMatch(/34\.00|\$34/);
    await page.getByRole('button', { name: 'Pay' }).click();

    await page.waitForURL(/\/success\?session_id=cs_local_/);
    await page.getByRole('heading', { name: 'Thank you for your purchase!' }).waitFor();
    await page.getByText('34.00 CAD').waitFor();

    // From here on the app moves by its own links: a reload would lose this mark.
    await page.evaluate(() => {
      (window as unknown as { purchaseMark: boolean }).purchaseMark = true;
    });

    // Pricing first: only the success page's refresh can have told it.
    await page.getByRole('link', { name: 'Pricing', exact: true }).first().click();
    const subscribed = page.getByRole('button', { name: 'Subscribed' });
    await subscribed.first().waitFor();
    expect(await subscribed.count()).toBe(2);
    expect(await subscribed.first().isDisabled()).toBe(true);
    await page.getByText(/^You are currently subscribed\. Your plan ends on .+\.$/).waitFor();

    await page.getByRole('link', { name: 'Dashboard', exact: true }).first().click();
    await page.getByRole('heading', { name: 'My Dashboard' }).waitFor();
    await expect.poll(() => fact('Status').innerText()).toBe('Active');
    // The plan's name comes from GET /api/plans, which may still be loading.
    await expect.poll(() => fact('Plan').innerText()).toBe('1 Month');
    await expect.poll(() => fact('Days left').innerText()).toBe('30');

    await page.getByRole('link', { name: 'Home', exact: true }).first().click();
    await page.getByRole('button', { name: /^Reading / }).click();
    await page.getByRole('link', { name: 'Reading Test 2', exact: true }).click();
    await page.getByText('Question 1 of 40').waitFor();

    expect(await page.evaluate(() => (window as unknown as { purchaseMark?: boolean }).purchaseMark)).toBe(true);
    expect(errors).toEqual([]);
  });
});
