// The browser extension under test: its build (extension/dist/chromium, made when missing or older
// than its sources), the system Chromium with the unpacked build loaded, and a way into the UI it
// shows inside pages. That UI lives in a *closed* shadow root (so pages cannot read it), which
// Playwright's selectors do not enter; the DevTools protocol does (DOM.getDocument with `pierce`),
// so tests find its elements there and click them with the real mouse at their position.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, type CDPSession, chromium, type Page, type Worker } from 'playwright-core';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const EXTENSION_DIR = path.join(repoRoot, 'extension/dist/chromium');
export const FIREFOX_BUILD_DIR = path.join(repoRoot, 'extension/dist/firefox');
export const WEB_EXT_BIN = path.join(repoRoot, 'node_modules/web-ext/bin/web-ext.js');
/**
 * A public-looking host name the browser resolves to 127.0.0.1 (`--host-resolver-rules`): a
 * fixture page reached under it is, to the extension, a page on the public web (its rules about
 * private addresses judge the name, as they must: it cannot resolve names itself).
 */
export const PUBLIC_HOST = 'public-site.example';

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** `npm run build:extension` unless a build newer than the extension's sources and contract/ exists. */
export function ensureExtensionBuilt(): void {
  let built: number;
  try {
    built = Math.min(statSync(path.join(EXTENSION_DIR, 'manifest.json')).mtimeMs, statSync(path.join(FIREFOX_BUILD_DIR, 'manifest.json')).mtimeMs);
  } catch {
    built = 0;
  }
  if (built > Math.max(newestMtime(path.join(repoRoot, 'extension')), newestMtime(path.join(repoRoot, 'contract')))) return;
  const wxt = path.join(repoRoot, 'node_modules/wxt/bin/wxt.mjs');
  for (const browser of ['chromium', 'firefox']) {
    const result = spawnSync(process.execPath, [wxt, 'build', 'extension', '-b', browser], { cwd: repoRoot, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`wxt build -b ${browser} failed:\n${result.stdout}\n${result.stderr}`);
  }
}

export interface ExtensionBrowser {
  context: BrowserContext;
  /** The extension's service worker: a test can run code in it (the context menu's handler, say). */
  worker: Worker;
  extensionId: string;
  extensionUrl: (file: string) => string;
  close(): Promise<void>;
}

/** The system Chromium with the unpacked extension loaded, headless, in a fresh profile. */
export async function launchWithExtension(baseURL: string): Promise<ExtensionBrowser> {
  const profile = await mkdtemp(path.join(tmpdir(), 'pinboard-extension-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    baseURL,
    // Still screenshots: the in-page UI's entrance animation only runs without this preference.
    reducedMotion: 'reduce',
    viewport: { width: 1280, height: 800 },
    args: [
      `--disable-extensions-except=${EXTENSION_DIR}`,
      `--load-extension=${EXTENSION_DIR}`,
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--host-resolver-rules=MAP ${PUBLIC_HOST} 127.0.0.1`,
    ],
  });
  const worker = context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://')) ?? (await context.waitForEvent('serviceworker', { timeout: 30_000 }));
  const extensionId = new URL(worker.url()).host;
  return {
    context,
    worker,
    extensionId,
    extensionUrl: (file) => `chrome-extension://${extensionId}/${file}`,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

type DomNode = { nodeId: number; localName?: string; shadowRoots?: DomNode[]; children?: DomNode[]; contentDocument?: DomNode };

function findHost(node: DomNode): DomNode | null {
  if (node.localName === 'pinboard-extension-ui') return node;
  for (const child of [...(node.children ?? []), ...(node.shadowRoots ?? [])]) {
    const found = findHost(child);
    if (found) return found;
  }
  return null;
}

/**
 * Runs `use` with a DevTools session and the node id of the extension's shadow root (null while it
 * has shown nothing). A session per call: one kept across DOM changes answered with a stale tree.
 */
async function withShadowRoot<T>(page: Page, use: (cdp: CDPSession, root: { nodeId: number; mode: string } | null) => Promise<T>): Promise<T> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = (await cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as { root: DomNode };
    const shadow = findHost(root)?.shadowRoots?.[0] as (DomNode & { shadowRootType?: string }) | undefined;
    return await use(cdp, shadow ? { nodeId: shadow.nodeId, mode: shadow.shadowRootType ?? '' } : null);
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

function textOf(html: string): string {
  return html
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

type ShadowElement = { text: string; html: string; nodeId: number; center: { x: number; y: number } | null };

async function elementsIn(cdp: CDPSession, rootId: number, selector: string): Promise<ShadowElement[]> {
  const { nodeIds } = (await cdp.send('DOM.querySelectorAll', { nodeId: rootId, selector })) as { nodeIds: number[] };
  return Promise.all(
    nodeIds.map(async (nodeId) => {
      const { outerHTML } = (await cdp.send('DOM.getOuterHTML', { nodeId })) as { outerHTML: string };
      let center: { x: number; y: number } | null;
      try {
        const { model } = (await cdp.send('DOM.getBoxModel', { nodeId })) as { model: { border: number[] } };
        const [x1, y1, , , x3, y3] = model.border as [number, number, number, number, number, number];
        center = { x: (x1 + x3) / 2, y: (y1 + y3) / 2 };
      } catch {
        center = null; // not rendered (hidden)
      }
      return { text: textOf(outerHTML), html: outerHTML, nodeId, center };
    }),
  );
}

/** The elements matching `selector` inside the extension's UI, with their text and box (page pixels). */
export function shadowElements(page: Page, selector: string): Promise<ShadowElement[]> {
  return withShadowRoot(page, (cdp, root) => (root ? elementsIn(cdp, root.nodeId, selector) : Promise.resolve([])));
}

/** The shadow root's mode ('closed' is what pages must get). */
export function shadowMode(page: Page): Promise<string | null> {
  return withShadowRoot(page, async (_cdp, root) => root?.mode ?? null);
}

/** Computed style values of the first element matching `selector` inside the extension's UI. */
export function shadowStyle(page: Page, selector: string, properties: string[]): Promise<Record<string, string>> {
  return withShadowRoot(page, async (cdp, root) => {
    const [element] = root ? await elementsIn(cdp, root.nodeId, selector) : [];
    if (!element) throw new Error(`no ${selector} in the extension's UI`);
    await cdp.send('CSS.enable');
    const { computedStyle } = (await cdp.send('CSS.getComputedStyleForNode', { nodeId: element.nodeId })) as { computedStyle: Array<{ name: string; value: string }> };
    return Object.fromEntries(properties.map((name) => [name, computedStyle.find((p) => p.name === name)?.value ?? '']));
  });
}

/** Waits until an element matching `selector` (and containing `text`) is shown; returns it. */
export async function waitForShadow(page: Page, selector: string, text = '', timeout = 30_000) {
  const deadline = Date.now() + timeout;
  let seen: string[] = [];
  while (Date.now() < deadline) {
    const elements = await shadowElements(page, selector);
    seen = elements.map((e) => e.text);
    const match = elements.find((e) => e.center && e.text.includes(text));
    if (match) return match;
    await page.waitForTimeout(100);
  }
  throw new Error(`"${selector}" with "${text}" did not show in the extension's UI within ${timeout} ms (saw: ${JSON.stringify(seen)})`);
}

/** A real mouse click on the extension's element matching `selector` and `text`. */
export async function clickShadow(page: Page, selector: string, text = ''): Promise<void> {
  const element = await waitForShadow(page, selector, text);
  const center = element.center as { x: number; y: number };
  await page.mouse.click(center.x, center.y);
}
