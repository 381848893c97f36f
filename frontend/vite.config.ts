/// <reference types="vitest/config" />
import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, searchForWorkspaceRoot } from 'vite';

// The local server (functions/local) serves the built app and the API on one
// origin; `npm run dev` proxies the API and sign-in to it.
const backend = process.env.TEF_BACKEND ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      // Operator-supplied content read at build time (content/testimonials.json).
      '@content': fileURLToPath(new URL('../content', import.meta.url)),
    },
  },
  server: {
    fs: { allow: [searchForWorkspaceRoot(process.cwd()), fileURLToPath(new URL('../content', import.meta.url))] },
    proxy: {
      '/api': backend,
      '/auth': backend,
      '/media': backend,
      '/config.json': backend,
    },
  },
  build: {
    target: 'es2022',
    rollupOptions: {
      input: {
        main: fileURLToPath(new URL('./index.html', import.meta.url)),
        callback: fileURLToPath(new URL('./auth-callback.html', import.meta.url)),
      },
    },
    sourcemap: true,
    // main (React, router, landing) is ~116 KB gzip; recharts (~110 KB gzip) loads only on the tracker.
    // `make bench` reports the initial JavaScript.
    chunkSizeWarningLimit: 400,
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
  },
});
