import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { staticShellHtml } from './frontend/components/grid/skeleton.ts';
import { installableApp } from './vite-plugins/installable-app.ts';

const repoRoot = fileURLToPath(new URL('.', import.meta.url));
const backendUrl = process.env.API_URL ?? 'http://localhost:8080';

/** Writes the static shell into index.html: a first paint before any script has run. */
const staticShell: Plugin = {
  name: 'pinboard-static-shell',
  transformIndexHtml: (html) => html.replace('<!--app-shell-->', staticShellHtml()),
};

/**
 * Puts the entry's stylesheet into index.html as a <style> element: the first paint (the static
 * shell) then waits for the HTML alone, not for one more round trip (docs/footprint.md). The
 * stylesheet is ~7 KB compressed; the HTML is never cached, so it is sent with every page load.
 */
const inlineStylesheet: Plugin = {
  name: 'pinboard-inline-stylesheet',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler: (html, { bundle }) =>
      html.replace(/<link rel="stylesheet"[^>]* href="\/([^"]+\.css)">/g, (tag, file: string) => {
        const asset = bundle?.[file];
        return asset?.type === 'asset' ? `<style>${String(asset.source)}</style>` : tag;
      }),
  },
};

// One config for the client build (root: frontend/, output: dist/public/, which the server serves)
// and for Vitest. The test projects run from the repository root.
export default defineConfig({
  root: `${repoRoot}frontend`,
  // installableApp: the web app manifest, its icons and the service worker (docs/installable-app.md).
  plugins: [react(), staticShell, inlineStylesheet, installableApp],
  build: {
    outDir: `${repoRoot}dist/public`,
    emptyOutDir: true,
    reportCompressedSize: true,
  },
  server: {
    // `npm run dev`: Vite serves the client and forwards API, socket and image calls to the backend.
    proxy: {
      '/api': backendUrl,
      '/seed-images': backendUrl,
      '/media': backendUrl,
      '/socket.io': { target: backendUrl, ws: true },
    },
  },
  test: {
    // The usual report, then each project's time (tests/support/project-times.ts).
    reporters: ['default', './tests/support/project-times.ts'],
    // Vitest's default worker count is the cores less one: one file at a time on the 2-core CI
    // machine. Two workers (and one module graph per API worker) took the four parallel projects
    // from 1,577 s to 1,197 s here; one full CI run with them is not yet clean (docs/performance.md).
    projects: [
      {
        extends: true,
        root: repoRoot,
        test: {
          name: 'client',
          environment: 'jsdom',
          // The browser extension's own modules (extension/lib, extension/content) are browser code too.
          include: ['frontend/**/*.test.{ts,tsx}', 'extension/**/*.test.ts'],
          setupFiles: ['frontend/test-support/setup.ts'],
          // A bound, not a speed check: jsdom renders slowly on a loaded 2-core machine (5 s was
          // met by a whole page of the router under a CPU hog).
          testTimeout: 30_000,
        },
      },
      {
        root: repoRoot,
        test: {
          name: 'api-postgres',
          environment: 'node',
          include: ['tests/api/**/*.test.ts'],
          env: { PINBOARD_TEST_DB: 'postgres' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        root: repoRoot,
        test: {
          name: 'api-pglite',
          environment: 'node',
          include: ['tests/api/**/*.test.ts'],
          // Suites that do not depend on the database (the HTTP layer: validation, CSRF, login
          // limits, the OpenAPI shapes; the route table; the demo pictures; the SSRF guard; config)
          // behave the same on either and spend their time hashing passwords and parsing: they run
          // once, on Postgres above. Everything that reads or writes data (queries, paging, counts,
          // constraints, jobs, the change log, idempotency, images) runs on both.
          exclude: ['tests/api/{bad-input,fuzz,openapi,csrf,login-throttle,auth-floods,routes,demo-catalog,demo-pictures-seen,safe-fetch,config}.test.ts'],
          env: { PINBOARD_TEST_DB: 'pglite' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        root: repoRoot,
        test: {
          // Socket.IO, scale-out and fault tests: real Postgres, Redis, sockets, processes.
          name: 'live',
          environment: 'node',
          include: ['tests/live/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        root: repoRoot,
        test: {
          // Fault tests: a private Postgres and Redis that get restarted, instances that get killed,
          // Debian's nginx in front (tests/support/faults.ts). Timing-sensitive, so one file at a
          // time and in a group of their own: `sequence.groupOrder: 1` runs them after the parallel
          // projects (group 0) have finished, and the e2e project (fileParallelism: false, which
          // Vitest 4 runs as a last, one-file-at-a-time group) only starts after them.
          name: 'faults',
          environment: 'node',
          include: ['tests/faults/**/*.test.ts'],
          testTimeout: 90_000,
          hookTimeout: 90_000,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        root: repoRoot,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // One file at a time: each keeps a core busy with Chromium; two at once on two cores made
          // a file three times as slow (phone-ergonomics: 206 s instead of 63 s).
          fileParallelism: false,
        },
      },
    ],
  },
});
