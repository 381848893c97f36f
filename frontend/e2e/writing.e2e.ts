/**
 * Writing for a free user, in the browser against the real server and its corrector: topic 1,
 * the accent keyboard, the word-count rule, one AI correction (a credit used), and a reload that
 * keeps the draft and the correction. Screenshots (desktop, phone, dark) go to artifacts/screenshots.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, signInThroughPopup, watchErrors } from './browser';

const base = inject('baseUrl');
const out = resolve(import.meta.dirname, '../../artifacts/screenshots');
let browser: Browser;
let page: Page;
let errors: string[];

beforeAll(async () => {
  mkdirSync(out, { recursive: true });
  browser = await launch();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  errors = watchErrors(page);
  await page.goto(base + '/');
  await signInThroughPopup(page, 'e2e.writing@example.com', () => page.getByRole('button', { name: 'Login' }).click());
  const terms = page.getByRole('dialog', { name: 'Privacy Policy and Terms of Use' });
  await terms.getByRole('button', { name: 'Accept' }).click();
  await terms.waitFor({ state: 'detached' });
});
afterAll(async () => {
  await browser.close();
});

/** About 75 words, with two deliberate mistakes ('les enfant', 'a la plage'). */
const REST =
  ' Ce matin-là, les enfant jouaient a la plage quand ils ont vu une petite boîte en bois à moitié cachée dans le sable. ' +
  'Ils l’ont ouverte avec prudence et ils ont découvert une vieille lettre et des photos de famille. ' +
  'La lettre racontait l’histoire d’un marin qui avait perdu ce trésor il y a cinquante ans. ' +
  'Grâce au journal local, les enfants ont retrouvé sa petite-fille, qui habite toujours dans la ville. ' +
  'Elle était très émue et elle les a remerciés chaleureusement.';

const noOverflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** A full-page picture from the top (the sticky bars then sit where they belong). */
async function shoot(name: string) {
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
  await page.screenshot({ path: join(out, name), fullPage: true });
}

describe('writing for a free user', () => {
  it('writes Section A of topic 1 with the accent keyboard, is corrected once, and keeps it all after a reload', async () => {
    await page.goto(base + '/section/writing');
    await page.getByRole('link', { name: /Une trouvaille inattendue/ }).click();
    await page.waitForURL(/\/writing\/luckyFind$/);
    await page.getByRole('heading', { name: 'TEF CANADA - EXPRESSION ÉCRITE' }).waitFor();
    await page.getByText(/^Temps Restant : (60:00|59:\d\d)$/).waitFor();
    await page.getByText('AI Analysis Credits: 3').waitFor();

    // A short start, then 'é' from the keyboard at the caret: the text area keeps the focus.
    const text = page.getByRole('textbox', { name: 'Votre texte (Section A)' });
    await text.click();
    await page.keyboard.type('Quelle journ');
    await page.getByRole('button', { name: 'é', exact: true }).click();
    await page.keyboard.type('e !');
    expect(await text.inputValue()).toBe('Quelle journée !');
    await page.getByText('Mots : 3').waitFor();

    // Too short: the button is disabled and says why on hover.
    const submit = page.getByRole('button', { name: 'Soumettre pour Correction' });
    expect(await submit.isDisabled()).toBe(true);
    await page.locator('.writing-submit-wrap').first().hover();
    await page.getByText('Section A: Votre texte doit contenir entre 70 et 120 mots. (Actuel: 3)').waitFor();

    // In range: the message goes with the edit, and the text is sent.
    await page.keyboard.insertText(REST);
    const draft = await text.inputValue();
    expect(await page.getByText(/Votre texte doit contenir/).count()).toBe(0);
    const count = Number((await page.getByText(/^Mots : \d+$/).first().innerText()).replace(/\D/g, ''));
    expect(count).toBeGreaterThanOrEqual(70);
    expect(count).toBeLessThanOrEqual(120);
    await submit.click();
    const result = page.getByRole('region', { name: 'Correction de la section A' });
    await result.getByRole('heading', { name: 'Résultat de la correction' }).waitFor({ timeout: 30_000 });
    expect(await result.locator('.writing-correction').count()).toBeGreaterThanOrEqual(1);
    await result.getByText(/^CLB (\d+|3 ou moins)$/).waitFor();
    await result.getByText(/^\d+ \/ 450$|^moins de \d+ \/ 450$/).waitFor();
    await page.getByText('AI Analysis Credits: 2').waitFor();
    await shoot('writing-desktop.png');

    // A reload keeps the draft, the correction and the clock.
    await page.reload();
    await page.getByRole('heading', { name: 'TEF CANADA - EXPRESSION ÉCRITE' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Votre texte (Section A)' }).inputValue()).toBe(draft);
    await result.getByRole('heading', { name: 'Résultat de la correction' }).waitFor();
    await page.getByText('AI Analysis Credits: 2').waitFor();

    // The phone layout: nothing wider than the screen, in light and dark.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await noOverflow()).toBeLessThanOrEqual(0);
    await shoot('writing-phone.png');
    await page.getByRole('switch', { name: 'Mode sombre' }).check();
    expect(await noOverflow()).toBeLessThanOrEqual(0);
    await shoot('writing-phone-dark.png');
    await page.getByRole('switch', { name: 'Mode sombre' }).uncheck();
    expect(errors).toEqual([]);
  });
});
