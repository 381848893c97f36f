/** Debian's chromium, driven by playwright-core: never a downloaded browser. */
import { chromium, type Browser, type Page } from 'playwright-core';
// The binary and switches, shared with make bench's Lighthouse run (scripts/lighthouse.mjs).
import settings from './chromium.json' with { type: 'json' };

const CHROMIUM = process.env.CHROMIUM_PATH ?? settings.path;

/** `extraArgs`: more switches for one suite (such as a fake microphone). */
export function launch(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...settings.args, ...extraArgs],
  });
}

/**
 * Collects page errors so a test can assert there were none, and content security policy
 * violations with them: the local server sends production's policy, so anything it would block
 * in production fails here.
 */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && m.text().includes('Content Security Policy')) errors.push(m.text());
  });
  return errors;
}

/** Signs in through the local provider's popup, opened by `trigger`. */
export async function signInThroughPopup(page: Page, email: string, trigger: () => Promise<void>): Promise<void> {
  const [popup] = await Promise.all([page.waitForEvent('popup'), trigger()]);
  await popup.waitForLoadState('domcontentloaded');
  await popup.getByLabel('E-mail address').fill(email);
  await Promise.all([popup.waitForEvent('close', { timeout: 20_000 }), popup.getByRole('button', { name: 'Continue' }).click()]);
}
