/**
 * Speaking for a free user, in the browser against the real server, its examiner, its speech and
 * its offline recogniser: (1) a typed Section A session of ten turns from the suggested questions,
 * ending with the banner and a report with its score; (2) Section B through a fake microphone
 * that plays a French recording made with espeak-ng, transcribed into a turn; (3) mute stops the
 * examiner's voice. Screenshots (desktop, phone) go to artifacts/screenshots.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, signInThroughPopup, watchErrors } from './browser';

const base = inject('baseUrl');
const out = resolve(import.meta.dirname, '../../artifacts/screenshots');
const TRANSCRIPTION_FAILED = 'Sorry, there was an error transcribing your speech.';
const ENDED = "SESSION TERMINÉE. Vous avez atteint le nombre maximum d'échanges.";
let browser: Browser;
let page: Page;
let errors: string[];
let tmp: string;
/** The CLB of the Section A report, as its 'Niveau CLB Estimé' line says. */
let reportedClb = 0;

beforeAll(async () => {
  mkdirSync(out, { recursive: true });
  // The fake microphone's voice: French speech, made now rather than kept as a binary in the repository.
  tmp = mkdtempSync(join(tmpdir(), 'tef-speaking-'));
  const wav = join(tmp, 'voice.wav');
  const said = spawnSync('espeak-ng', ['-v', 'fr-fr', '-s', '140', '-w', wav, "Salut ! Tu veux venir au cours de langue avec moi mardi soir ? C'est vraiment pas cher."]);
  if (said.status !== 0) throw new Error(`espeak-ng failed: ${String(said.stderr)}`);
  browser = await launch([
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
    `--use-file-for-fake-audio-capture=${wav}`,
    '--autoplay-policy=no-user-gesture-required',
  ]);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['microphone'], { origin: base });
  page = await context.newPage();
  errors = watchErrors(page);
  await page.goto(base + '/');
  await signInThroughPopup(page, 'e2e.speaking@example.com', () => page.getByRole('button', { name: 'Login' }).click());
  const terms = page.getByRole('dialog', { name: 'Privacy Policy and Terms of Use' });
  await terms.getByRole('button', { name: 'Accept' }).click();
  await terms.waitFor({ state: 'detached' });
});
afterAll(async () => {
  await browser.close();
  rmSync(tmp, { recursive: true, force: true });
});

const noOverflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
const log = () => page.getByRole('list', { name: 'Conversation' });
const examinerReplies = () => log().locator('.speaking-msg.is-assistant:not(.is-typing)');

async function shoot(name: string) {
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
  await page.screenshot({ path: join(out, name), fullPage: true });
}

/** Whether the examiner's voice is playing now. */
const playing = () =>
  page.evaluate(() => Array.from(document.querySelectorAll('audio')).some((a) => !a.paused && !a.ended && a.currentTime > 0));

describe('speaking for a free user', () => {
  it('holds a typed Section A session of ten turns from the suggested questions, ending with the banner and a report', async () => {
    await page.goto(base + '/section/speaking');
    await page.getByRole('link', { name: /Cours de langue du soir/ }).click();
    await page.waitForURL(/\/speaking\/serviceCoursLangue$/);
    await page.getByRole('heading', { level: 1, name: 'Cours de langue du soir' }).waitFor();
    await page.getByText(/^Temps restant : (5:00|4:5\d)$/).waitFor();
    await page.getByText('Speaking Practice Credits left: 3').waitFor();
    await page.getByText('Tour de parole (utilisateur) : 0 / 10').waitFor();
    // The examiner speaks while the learner types: keep it quiet for this long session.
    await page.getByRole('button', { name: 'Son activé' }).click();

    const questions = page.getByRole('combobox', { name: 'Questions suggérées' });
    const options = (await questions.locator('option:not([disabled])').allTextContents()).slice(0, 10);
    expect(options).toHaveLength(10);
    const input = page.getByRole('textbox', { name: 'Votre message' });
    for (const [i, question] of options.entries()) {
      await questions.selectOption({ label: question });
      expect(await input.inputValue()).toBe(question);
      await page.getByRole('button', { name: 'Envoyer' }).click();
      await page.getByText(`Tour de parole (utilisateur) : ${i + 1} / 10`).waitFor();
      await expect.poll(() => examinerReplies().count(), { timeout: 20_000 }).toBe(i + 1);
    }
    const last = (await examinerReplies().last().innerText()).trim();
    expect(last.endsWith('SESSION TERMINÉE.')).toBe(true);
    expect(await page.getByText('Erreur lors de la génération de la réponse IA.').count()).toBe(0);
    await page.getByText(ENDED).waitFor();
    expect(await input.isDisabled()).toBe(true);
    expect(await input.getAttribute('placeholder')).toBe('Session terminée.');

    const feedback = page.getByRole('region', { name: 'Feedback de Performance' });
    await feedback.locator('mark', { hasText: /^Score : \d+\/450$/ }).waitFor({ timeout: 60_000 });
    const clbLine = feedback.locator('mark', { hasText: /^Niveau CLB Estimé : \d+/ });
    reportedClb = Number((await clbLine.innerText()).replace(/\D/g, ''));
    await page.getByText('Speaking Practice Credits left: 2').waitFor();
    await shoot('speaking-desktop.png');

    // A reload keeps the finished session and its report, and charges nothing more.
    await page.reload();
    await feedback.locator('mark', { hasText: /^Score : \d+\/450$/ }).waitFor();
    await page.getByText('Speaking Practice Credits left: 2').waitFor();

    await page.setViewportSize({ width: 390, height: 844 });
    expect(await noOverflow()).toBeLessThanOrEqual(0);
    await shoot('speaking-phone.png');
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(errors).toEqual([]);
  }, 180_000);

  it('answers in Section B through the microphone: about 3 s recorded, stopped and sent, transcribed into a turn', async () => {
    await page.getByRole('button', { name: 'Section B' }).click();
    await page.getByText('Tour de parole (utilisateur) : 0 / 10').waitFor();
    await page.getByText(/^Temps restant : (10:00|9:5\d)$/).waitFor();
    expect(await page.getByRole('combobox', { name: 'Questions suggérées' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Parler (enregistrer)' }).click();
    const bar = page.getByRole('group', { name: 'Enregistrement' });
    await bar.getByRole('progressbar', { name: 'Durée de l’enregistrement' }).waitFor();
    await bar.getByText('0:03').waitFor({ timeout: 10_000 });
    expect(await page.getByRole('button', { name: 'Section A' }).isDisabled()).toBe(true);
    await page.locator('.speaking-work').screenshot({ path: join(out, 'speaking-recording.png') });
    await bar.getByRole('button', { name: 'Arrêter et envoyer' }).click();

    // The offline recogniser answers (the first call may load its model).
    await page.getByText('Tour de parole (utilisateur) : 1 / 10').or(page.getByText(TRANSCRIPTION_FAILED)).waitFor({ timeout: 90_000 });
    expect(await page.getByText(TRANSCRIPTION_FAILED).count()).toBe(0);
    const said = (await log().locator('.speaking-msg.is-user .speaking-msg-text').first().innerText()).trim();
    console.log(`transcribed: ${said}`);
    expect(said.length).toBeGreaterThan(3);
    await expect.poll(() => examinerReplies().count(), { timeout: 20_000 }).toBe(1);
    expect(errors).toEqual([]);
  }, 150_000);

  it('stops the examiner’s voice at once when muted', async () => {
    // Section B continues: its voice is on.
    await page.getByRole('button', { name: 'Son coupé' }).click();
    await page.getByRole('button', { name: 'Son activé' }).waitFor();
    const before = await examinerReplies().count();
    const input = page.getByRole('textbox', { name: 'Votre message' });
    await input.fill("Allez, viens avec moi, ce sera amusant et on pourra pratiquer l'espagnol ensemble pendant les vacances.");
    await page.getByRole('button', { name: 'Envoyer' }).click();
    await expect.poll(() => examinerReplies().count(), { timeout: 20_000 }).toBe(before + 1);
    await expect.poll(playing, { timeout: 20_000 }).toBe(true);

    await page.getByRole('button', { name: 'Son activé' }).click();
    expect(await playing()).toBe(false);
    expect(
      await page.evaluate(() => Array.from(document.querySelectorAll('audio')).every((a) => a.paused)),
    ).toBe(true);
    expect(errors).toEqual([]);
  }, 90_000);

  it('puts the Section A report on the tracker, at the CLB the report gave', async () => {
    await page.goto(base + '/results-tracker');
    const chart = page.getByRole('article', { name: 'Production Orale' });
    await chart.getByText(/^Latest: CLB \d+/).waitFor();
    expect(await chart.getByText(/^Latest: CLB \d+/).innerText()).toBe(`Latest: CLB ${reportedClb}`);
    expect(errors).toEqual([]);
  });
});
