// Shared by the browser tests (tests/e2e) and bench:feed: a fresh client build when the sources
// changed, and the system Chromium (Debian's, never a downloaded one) through playwright-core.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const distIndex = path.join(repoRoot, 'dist/public/index.html');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    // frontend/node_modules holds Vite's and Vitest's caches (the client's root is frontend/), which
    // every test run writes: not sources.
    if (entry.isDirectory()) newest = entry.name === 'node_modules' ? newest : Math.max(newest, newestMtime(full));
    else if (!/\.test\.tsx?$/.test(entry.name)) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/** Builds the client (vite build → dist/public) unless a build newer than every source exists. */
export function ensureClientBuilt(): void {
  let built: number;
  try {
    built = statSync(distIndex).mtimeMs;
  } catch {
    built = 0;
  }
  if (built > Math.max(newestMtime(path.join(repoRoot, 'frontend')), newestMtime(path.join(repoRoot, 'vite-plugins')))) return;
  const vite = path.join(repoRoot, 'node_modules/vite/bin/vite.js');
  // As `npm run build` makes it: under Vitest NODE_ENV is "test", which gives React's slower
  // development build.
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production' } });
  if (result.status !== 0) throw new Error(`vite build failed:\n${result.stdout}\n${result.stderr}`);
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
