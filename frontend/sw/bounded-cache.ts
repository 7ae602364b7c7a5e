// A runtime cache with bounds: at most `maxEntries` answers (the oldest stored go first) and none
// older than `maxAgeMs` (an expired one is dropped when it is looked up). The time an answer was
// stored travels with it in a header, so no second store is needed.

const STORED_AT_HEADER = 'X-Pinboard-Stored-At';

export interface CacheBounds {
  name: string;
  maxEntries: number;
  maxAgeMs: number;
}

/**
 * Keeps `response` (an unread copy of what the page is sent) for `request`, unless `wanted` says
 * no once its body has arrived.
 */
export async function store(bounds: CacheBounds, request: Request, response: Response, wanted: () => boolean = () => true): Promise<void> {
  const headers = new Headers(response.headers);
  headers.set(STORED_AT_HEADER, String(Date.now()));
  const copy = new Response(await response.blob(), { status: response.status, statusText: response.statusText, headers });
  if (!wanted()) return;
  const cache = await caches.open(bounds.name);
  await cache.put(request, copy);
  // Cache keys come in the order they were put: the first ones are the oldest.
  const keys = await cache.keys();
  await Promise.all(keys.slice(0, Math.max(0, keys.length - bounds.maxEntries)).map((key) => cache.delete(key)));
}

/** The stored answer for `request` if there is one young enough; an expired one is deleted. */
export async function lookUp(bounds: CacheBounds, request: Request): Promise<Response | undefined> {
  const cache = await caches.open(bounds.name);
  // Vary is ignored: the worker never sees the cookie or encoding headers a server varies on.
  const found = await cache.match(request, { ignoreVary: true });
  if (!found) return undefined;
  const storedAt = Number(found.headers.get(STORED_AT_HEADER));
  if (!(Date.now() - storedAt <= bounds.maxAgeMs)) {
    await cache.delete(request, { ignoreVary: true });
    return undefined;
  }
  return found;
}
