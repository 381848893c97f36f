import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch } from './browser';

const base = inject('baseUrl');
const out = resolve(import.meta.dirname, '../../artifacts/screenshots');
let browser: Browser;

beforeAll(async () => {
  mkdirSync(out, { recursive: true });
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

describe.each([
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
])('landing page at $width px', ({ name, width, height }) => {
  it('renders without horizontal overflow', async () => {
    const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    await page.goto(base + '/');
    await page.getByRole('heading', { name: 'Prepare for Your TEF Exam with Confidence' }).waitFor();
    await page.locator('#pricing').getByText('Quarterly').first().waitFor();
    // Load every lazy image now, so the full-page picture shows them.
    await page.evaluate(async () => {
      const images = Array.from(document.images);
      images.forEach((img) => (img.loading = 'eager'));
      await Promise.all(
        images.map((img) =>
          img.complete
            ? Promise.resolve()
            : new Promise((r) => {
                img.addEventListener('load', r, { once: true });
                img.addEventListener('error', r, { once: true });
              }),
        ),
      );
    });
    const broken = await page.evaluate(() =>
      Array.from(document.images)
        .filter((img) => img.naturalWidth === 0)
        .map((img) => img.src),
    );
    expect(broken).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(out, `landing-${name}.png`), fullPage: true });
    await context.close();
  });
});
