import { type CacheBounds, lookUp, store } from './bounded-cache.ts';
import { SESSION_DATA_ID } from '../../contract/home.ts';
import { API_CACHE, IMAGE_CACHE } from './cache-names.ts';

/** Thumbnails, uploaded images and the demo pictures: content-addressed, so a copy never goes stale. */
export const IMAGES: CacheBounds = { name: IMAGE_CACHE, maxEntries: 300, maxAgeMs: 7 * 24 * 3600_000 };
/** The API's answers to the pages visited, for reading them offline. */
export const API: CacheBounds = { name: API_CACHE, maxEntries: 100, maxAgeMs: 24 * 3600_000 };

/** Marks an answer the worker served from its cache because the network did not answer. */
export const OFFLINE_COPY_HEADER = 'X-Pinboard-Offline-Copy';

/** Work that may finish after the answer is sent (the fetch event's waitUntil). */
export type Later = (work: Promise<unknown>) => void;

const quietly = (work: Promise<void>) => work.catch(() => undefined); // a full disk only means no copy

/** Cache first: an image once seen is shown from the cache; a new one is fetched and kept if it is a 200. */
export async function cacheFirstImage(request: Request, later: Later): Promise<Response> {
  const cached = await lookUp(IMAGES, request).catch(() => undefined);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.status === 200) later(quietly(store(IMAGES, request, response.clone())));
  return response;
}

/**
 * Which user's answers the API cache holds: counted up at every sign-in and sign-out, so an answer
 * fetched for the user before is not stored after the cache was emptied for the next one.
 */
let apiGeneration = 0;

/**
 * Empties the API cache and the images: called when a sign-in or sign-out goes by (a shared phone
 * shows no one's copies, nor the pictures of their private pins).
 */
export async function forgetApiAnswers(): Promise<void> {
  apiGeneration += 1;
  await Promise.all([caches.delete(API_CACHE), caches.delete(IMAGE_CACHE)]);
}

const isJson = (response: Response) => (response.headers.get('Content-Type') ?? '').includes('application/json');

/**
 * Network first: the server's answer, and a copy of it kept when it is a 200 JSON answer (not the
 * export's ZIP); when the network does not answer, the copy, marked with OFFLINE_COPY_HEADER so
 * the client can tell.
 */
export async function networkFirstApi(request: Request, later: Later): Promise<Response> {
  const generation = apiGeneration;
  let response: Response;
  try {
    response = await fetch(request);
  } catch (error) {
    const cached = await lookUp(API, request).catch(() => undefined);
    if (!cached) throw error;
    const headers = new Headers(cached.headers);
    headers.set(OFFLINE_COPY_HEADER, '1');
    return new Response(cached.body, { status: cached.status, statusText: cached.statusText, headers });
  }
  if (response.status === 200 && isJson(response)) later(quietly(store(API, request, response.clone(), () => generation === apiGeneration)));
  return response;
}

/** The session check's address: what the client asks when its page carries no session. */
const SESSION_CHECK = '/api/auth/';
const SESSION_ELEMENT = new RegExp(`<script type="application/json" id="${SESSION_DATA_ID}">(.*?)</script>`, 's');

/**
 * Every page the server sends carries the session check's answer (contract/home.ts), so the client
 * never asks GET /api/auth/ while online, and networkFirstApi never sees it. A copy is kept from the
 * page instead, as that call's answer: offline, the precached shell carries no session, the client
 * asks, and this copy opens the app as the user it was (the outbox then shows what waits).
 */
export async function keepSessionOf(page: Response): Promise<void> {
  const generation = apiGeneration;
  const found = SESSION_ELEMENT.exec(await page.text())?.[1];
  if (found === undefined) return;
  // Valid JSON as it is (its `<` are written as \u003c escapes).
  const answer = new Response(found, { status: 200, headers: { 'Content-Type': 'application/json' } });
  await store(API, new Request(new URL(SESSION_CHECK, self.location.origin)), answer, () => generation === apiGeneration);
}
