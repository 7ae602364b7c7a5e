/// <reference lib="webworker" />
// The service worker (docs/installable-app.md), built into /sw.js by vite-plugins/installable-app.ts
// with the build's file list written in for __PINBOARD_PRECACHE__.
import { SHARE_TARGET_PATH } from '../../contract/share-target.ts';
import type { PrecacheManifest } from './precache-manifest.ts';
import { cachedShell, dropOldPrecaches, installPrecache, precached } from './precache.ts';
import { type Later, cacheFirstImage, forgetApiAnswers, keepSessionOf, networkFirstApi } from './runtime-caches.ts';
import { answerShare } from './share-target.ts';

declare const self: ServiceWorkerGlobalScope;
declare const __PINBOARD_PRECACHE__: PrecacheManifest;
const manifest = __PINBOARD_PRECACHE__;

/** The calls that sign a user in or out: the API cache is emptied as each one goes by. */
const SIGN_IN_OR_OUT = new Set(['POST /api/auth/login', 'POST /api/auth/signup', 'POST /api/auth/demo', 'GET /api/auth/logout']);
const IMAGE_PATHS = ['/media/', '/seed-images/'];

self.addEventListener('install', (event) => {
  // A new version takes over as soon as it has every file: open tabs keep working, since the
  // version before's files stay (precache.ts) and every file name is unique to its content.
  event.waitUntil(installPrecache(manifest).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(dropOldPrecaches(manifest).then(() => self.clients.claim()));
});

/**
 * A navigation: the network's page (and a copy of the session it carries); the cached shell when
 * the network does not answer.
 */
async function navigate(request: Request, later: Later): Promise<Response> {
  try {
    const page = await fetch(request);
    if (page.ok) later(keepSessionOf(page.clone()).catch(() => undefined));
    return page;
  } catch (error) {
    const shell = await cachedShell(manifest);
    if (!shell) throw error;
    return shell;
  }
}

/** A file of the build: from the precache (this version's or the one before), else the network. */
async function buildFile(request: Request): Promise<Response> {
  return (await precached(request)) ?? fetch(request);
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const later = (work: Promise<unknown>) => event.waitUntil(work);
  if (request.method === 'POST' && url.pathname === SHARE_TARGET_PATH) return event.respondWith(answerShare(request));
  if (SIGN_IN_OR_OUT.has(`${request.method} ${url.pathname}`)) return event.waitUntil(forgetApiAnswers());
  // Everything else the worker touches is a read; writes, the session check and sockets go by.
  if (request.method !== 'GET') return;
  if (request.mode === 'navigate') return event.respondWith(navigate(request, later));
  if (url.pathname.startsWith('/assets/')) return event.respondWith(buildFile(request));
  if (IMAGE_PATHS.some((prefix) => url.pathname.startsWith(prefix))) return event.respondWith(cacheFirstImage(request, later));
  // The session check (GET /api/auth/) is kept too: a reload offline opens signed in as before.
  // The other /api/auth/ reads (logout, tokens of a sign-in) are never kept.
  if (url.pathname.startsWith('/api/') && (url.pathname === '/api/auth/' || !url.pathname.startsWith('/api/auth/'))) return event.respondWith(networkFirstApi(request, later));
});
