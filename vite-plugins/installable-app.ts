// The installable app's build step (docs/installable-app.md): writes the web app manifest and its
// icons, and builds the service worker into /sw.js with the list of this build's files to precache.
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { build, type Plugin, type Rolldown } from 'vite';
import type { PrecacheEntry, PrecacheManifest } from '../frontend/sw/precache-manifest.ts';
import { drawIcon } from './app-icons.ts';
import { appManifest, ICONS } from './app-manifest.ts';

const workerEntry = fileURLToPath(new URL('../frontend/sw/sw.ts', import.meta.url));
const hash = (text: string | Uint8Array) => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** The shell and every script and stylesheet of the bundle, lazy route chunks included. */
export function precacheManifest(bundle: Rolldown.OutputBundle): PrecacheManifest {
  const entries: PrecacheEntry[] = [];
  for (const file of Object.values(bundle)) {
    if (file.fileName === 'index.html' && file.type === 'asset') entries.push({ url: '/index.html', revision: hash(file.source) });
    // Their names carry their content's hash (assets/[name]-[hash].js): no revision needed.
    else if (/\.(js|css)$/.test(file.fileName)) entries.push({ url: `/${file.fileName}`, revision: null });
  }
  entries.sort((a, b) => a.url.localeCompare(b.url));
  return { version: hash(JSON.stringify(entries)), entries };
}

/** Bundles frontend/sw/ into one classic script (every browser runs those as workers). */
async function buildWorker(manifest: PrecacheManifest): Promise<string> {
  const output = await build({
    configFile: false,
    logLevel: 'warn',
    publicDir: false,
    define: { __PINBOARD_PRECACHE__: JSON.stringify(manifest) },
    build: {
      write: false,
      minify: true,
      copyPublicDir: false,
      reportCompressedSize: false,
      rolldownOptions: { input: workerEntry, output: { format: 'iife', entryFileNames: 'sw.js' } },
    },
  });
  const outputs = Array.isArray(output) ? output : [output];
  for (const result of outputs) {
    if (!('output' in result)) continue;
    const chunk = result.output.find((file) => file.type === 'chunk' && file.isEntry);
    if (chunk?.type === 'chunk') return chunk.code;
  }
  throw new Error('the service worker build gave no script');
}

export const installableApp: Plugin = {
  name: 'pinboard-installable-app',
  apply: 'build',
  generateBundle: {
    // After index.html is written into the bundle (its revision is its final text).
    order: 'post',
    async handler(_options, bundle) {
      const manifest = precacheManifest(bundle);
      this.emitFile({ type: 'asset', fileName: 'sw.js', source: await buildWorker(manifest) });
      this.emitFile({ type: 'asset', fileName: 'manifest.webmanifest', source: JSON.stringify(appManifest(), null, 2) });
      for (const icon of ICONS) this.emitFile({ type: 'asset', fileName: icon.file, source: await drawIcon(icon.size, icon.purpose) });
    },
  },
};
