/**
 * Starts the real local server (target/debug/tef-local) on a free port with a
 * fresh data folder, serving the built frontend; stops it afterwards.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** The server's environment, for running `tef-local` commands against its data. */
    serverEnv: Record<string, string>;
  }
}

const root = resolve(import.meta.dirname, '../..');

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? ok(addr.port) : fail(new Error('no port'))));
    });
  });
}

async function waitForHealth(url: string, server: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the local server exited with code ${server.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the local server did not answer ${url} within ${timeoutMs} ms`);
}

export interface RunningServer {
  baseUrl: string;
  env: Record<string, string>;
  stop: () => void;
}

/** Runs a `tef-local` command (such as `grant`) against a running server's data. */
export function tefLocal(env: Record<string, string>, ...args: string[]): string {
  const run = spawnSync(join(root, 'target/debug/tef-local'), args, { cwd: root, env: { ...process.env, ...env }, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`tef-local ${args.join(' ')} failed: ${run.stderr}`);
  return run.stdout;
}

/** Starts tef-local on a free port with a fresh data folder; `extraEnv` adds settings. */
export async function startServer(extraEnv: Record<string, string> = {}, publish = true): Promise<RunningServer> {
  const binary = join(root, 'target/debug/tef-local');
  // TEF_E2E_DIST lets two builds of the app be tested side by side (default: frontend/dist).
  const distDir = process.env.TEF_E2E_DIST ? resolve(process.env.TEF_E2E_DIST) : join(root, 'frontend/dist');
  const dist = join(distDir, 'index.html');
  if (!existsSync(binary)) throw new Error(`${binary} is missing: run \`make build\` first (make e2e does)`);
  if (!existsSync(dist)) throw new Error(`${dist} is missing: run \`make build\` first (make e2e does)`);

  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'tef-e2e-'));
  const serverEnv: Record<string, string> = {
    PORT: String(port),
    TEF_DATA_DIR: dataDir,
    // Rendered audio is cached by content hash: later runs render only what changed.
    TEF_MEDIA_DIR: join(root, 'target/e2e-media'),
    TEF_STATIC_DIR: distDir,
    RUST_LOG: process.env.RUST_LOG ?? 'warn',
    ...extraEnv,
  };
  const env = { ...process.env, ...serverEnv };
  if (publish) {
    // Publish the exam media (images, rendered audio) as `make run` does.
    const published = spawnSync(binary, ['publish'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
    if (published.status !== 0) throw new Error(`tef-local publish failed with status ${String(published.status)}`);
  }
  const server = spawn(binary, [], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHealth(`${baseUrl}/api/health`, server, 30_000);
  return {
    baseUrl,
    env: serverEnv,
    stop: () => {
      server.kill('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export default async function setup(project: TestProject) {
  const server = await startServer();
  project.provide('baseUrl', server.baseUrl);
  project.provide('serverEnv', server.env);
  return server.stop;
}
