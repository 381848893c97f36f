// make bench: Lighthouse (mobile settings: its default device, network and CPU throttling) on
// the built app served by the local server, signed out and signed in, against the budgets of
// docs/PERFORMANCE.md. Each page is measured RUNS times and the median is kept.
//
//   node scripts/lighthouse.mjs http://127.0.0.1:PORT [runs]
//
// Chromium is Debian's, driven by playwright-core (frontend's dependency) to sign in through the
// local provider; Lighthouse (installed by scripts/bench.sh into .tools/lighthouse) then audits
// pages in the same profile: the landing as a first visit (cache and storage cleared), signed-in
// pages without clearing them, as a returning learner's load. Prints a markdown table; exits 1 when a budget is missed.
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const fromFrontend = createRequire(join(root, 'frontend/package.json'));
const fromTools = createRequire(join(root, '.tools/lighthouse/package.json'));
const { chromium } = fromFrontend('playwright-core');
const lighthouse = (await import(fromTools.resolve('lighthouse'))).default;

const base = process.argv[2];
const runs = Number(process.argv[3] ?? 3);
if (!base) {
  console.error('usage: node scripts/lighthouse.mjs BASE_URL [runs]');
  process.exit(2);
}

const BUDGET = { performance: 98, accessibility: 100, landingLcpMs: 1500 };
const PAGES = [
  { name: 'landing', path: '/', signedIn: false },
  { name: 'section', path: '/section/reading', signedIn: true },
  { name: 'quiz', path: '/quiz/reading/1', signedIn: true },
  { name: 'writing', path: '/writing/luckyFind', signedIn: true },
  { name: 'speaking', path: '/speaking/serviceCoursLangue', signedIn: true },
  { name: 'tracker', path: '/results-tracker', signedIn: true },
];

const port = 9300 + Math.floor(Math.random() * 500);
const profile = mkdtempSync(join(tmpdir(), 'tef-lighthouse-'));
// The same binary and switches as the end-to-end tests.
const chromiumSettings = JSON.parse(readFileSync(join(root, 'frontend/e2e/chromium.json'), 'utf8'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM_PATH ?? chromiumSettings.path,
  headless: true,
  args: [`--remote-debugging-port=${port}`, ...chromiumSettings.args],
});

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * A signed-out page is audited as a first visit (Lighthouse clears the origin's cache and storage);
 * a signed-in page as a returning learner's, with the session (and the cached app) kept.
 */
async function audit(path, signedIn) {
  const result = await lighthouse(
    base + path,
    { port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'], disableStorageReset: signedIn },
  );
  const lhr = result.lhr;
  if (lhr.runtimeError) throw new Error(`${path}: ${lhr.runtimeError.message}`);
  return {
    performance: Math.round((lhr.categories.performance.score ?? 0) * 100),
    accessibility: Math.round((lhr.categories.accessibility.score ?? 0) * 100),
    lcp: lhr.audits['largest-contentful-paint'].numericValue,
    metrics: ['first-contentful-paint', 'speed-index', 'total-blocking-time', 'cumulative-layout-shift']
      .map((id) => `${id.split('-').map((w) => w[0]).join('').toUpperCase()} ${lhr.audits[id].displayValue} (${Math.round((lhr.audits[id].score ?? 0) * 100)})`)
      .join(', '),
    failedA11y: Object.values(lhr.audits)
      .filter((a) => a.score === 0 && lhr.categories.accessibility.auditRefs.some((r) => r.id === a.id))
      .map((a) => a.id),
  };
}

async function signIn() {
  const page = await context.newPage();
  await page.goto(base + '/');
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByRole('button', { name: 'Login' }).click(),
  ]);
  await popup.waitForLoadState('domcontentloaded');
  await popup.getByLabel('E-mail address').fill('bench.lighthouse@example.com');
  await Promise.all([popup.waitForEvent('close', { timeout: 20_000 }), popup.getByRole('button', { name: 'Continue' }).click()]);
  const terms = page.getByRole('dialog', { name: 'Privacy Policy and Terms of Use' });
  await terms.waitFor();
  await terms.getByRole('button', { name: 'Accept' }).click();
  await terms.waitFor({ state: 'detached' });
  await page.close();
}

const rows = [];
let failed = false;
try {
  for (const signedIn of [false, true]) {
    if (signedIn) await signIn();
    for (const page of PAGES.filter((p) => p.signedIn === signedIn)) {
      const samples = [];
      for (let i = 0; i < runs; i++) samples.push(await audit(page.path, signedIn));
      const perf = median(samples.map((s) => s.performance));
      const a11y = median(samples.map((s) => s.accessibility));
      const lcp = median(samples.map((s) => s.lcp));
      const notes = [...new Set(samples.flatMap((s) => s.failedA11y))];
      const ok =
        perf >= BUDGET.performance &&
        a11y >= BUDGET.accessibility &&
        (page.name !== 'landing' || lcp <= BUDGET.landingLcpMs);
      if (!ok) failed = true;
      rows.push(
        `| ${page.name} (\`${page.path}\`) | ${perf} | ${a11y} | ${(lcp / 1000).toFixed(2)} s | ${ok ? 'within' : '**OVER**'}${notes.length ? ` (a11y: ${notes.join(', ')})` : ''} |`,
      );
      console.error(`  ${page.name}: performance ${samples.map((s) => s.performance).join('/')}, accessibility ${a11y}, LCP ${samples.map((s) => Math.round(s.lcp)).join('/')} ms`);
      for (const s of samples) console.error(`    ${s.metrics}`);
    }
  }
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}

console.log(`Lighthouse, mobile settings, median of ${runs} runs. Budgets: performance ≥ ${BUDGET.performance}, accessibility = ${BUDGET.accessibility}, landing LCP ≤ ${BUDGET.landingLcpMs / 1000} s.`);
console.log('');
console.log('| Page | Performance | Accessibility | LCP | Verdict |');
console.log('|---|---|---|---|---|');
for (const row of rows) console.log(row);
process.exit(failed ? 1 : 0);
