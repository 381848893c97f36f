import { defineConfig } from 'vitest/config';

// End-to-end tests: a real browser (Debian's chromium, driven by playwright-core)
// against the real local server, which e2e/global-setup.ts starts.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['./e2e/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    maxWorkers: 1,
  },
});
