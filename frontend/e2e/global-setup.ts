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
  stop: () => void;
}

/** Starts tef-local on a free port with a fresh data folder; `extraEnv` adds settings. */
export async function startServer(extraEnv: Record<string, string> = {}, publish = true): Promise<RunningServer> {
  const binary = join(root, 'target/debug/tef-local');
  const dist = join(root, 'frontend/dist/index.html');
  if (!existsSync(binary)) throw new Error(`${binary} is missing: run \`make build\` first (make e2e does)`);
  if (!existsSync(dist)) throw new Error(`${dist} is missing: run \`make build\` first (make e2e does)`);

  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'tef-e2e-'));
  const env = {
    ...process.env,
    PORT: String(port),
    TEF_DATA_DIR: dataDir,
    TEF_STATIC_DIR: join(root, 'frontend/dist'),
    RUST_LOG: process.env.RUST_LOG ?? 'warn',
    ...extraEnv,
  };
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
    stop: () => {
      server.kill('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export default async function setup(project: TestProject) {
  const server = await startServer();
  project.provide('baseUrl', server.baseUrl);
  return server.stop;
}
