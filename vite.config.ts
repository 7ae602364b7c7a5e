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
    // A file per core, all projects in one queue. Vitest's own default is one less than the cores:
    // one file at a time on the 2-core CI machine, 3,400 s of tests; this way ~950 s (three workers:
    // ~890 s, with the CPU saturated and every file slower; docs/performance.md, "CI time").
    maxWorkers: '100%',
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
          // One module graph per worker, not one per file (here, in api-pglite, live, faults and
          // e2e): importing the server again for each file was a third of these suites' time.
          isolate: false,
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
          isolate: false,
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
          isolate: false,
          include: ['tests/live/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        root: repoRoot,
        test: {
          // Fault tests: a private Postgres and Redis that get restarted, instances that get killed,
          // Debian's nginx in front (tests/support/faults.ts), each on ports of its own: they run
          // beside the other projects' files, which is load they must survive anyway.
          name: 'faults',
          environment: 'node',
          isolate: false,
          include: ['tests/faults/**/*.test.ts'],
          testTimeout: 90_000,
          hookTimeout: 90_000,
        },
      },
      {
        root: repoRoot,
        test: {
          // The system Chromium against the built client (tests/support/use-browser-server.ts).
          // They run beside the other files too: a file waits on its page a third of the time.
          name: 'e2e',
          environment: 'node',
          isolate: false,
          include: ['tests/e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
