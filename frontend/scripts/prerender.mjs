// After `vite build`: paints the landing page's first screen into dist/index.html (the hero is
// then drawn before any script runs), and keeps the empty shell as dist/app.html, which the
// local server and CloudFront serve for every other client route.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const frontend = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(frontend, process.argv[2] ?? 'dist');
const ssr = join(frontend, 'dist-ssr');
const { renderLandingShell } = await import(pathToFileURL(join(ssr, 'render.js')).href);
const html = await renderLandingShell();
if (!html.includes('id="hero-title"')) throw new Error('prerender: the shell has no hero');

const index = readFileSync(join(dist, 'index.html'), 'utf8');
const empty = '<div id="root"></div>';
if (!index.includes(empty)) throw new Error(`prerender: ${dist}/index.html has no empty root`);
writeFileSync(join(dist, 'app.html'), index);
writeFileSync(join(dist, 'index.html'), index.replace(empty, `<div id="root">${html}</div>`));
rmSync(ssr, { recursive: true, force: true });
console.log(`prerender: index.html carries the landing's first screen (${html.length} bytes); app.html is the empty shell`);
