import { PRECACHE_PREFIX } from './cache-names.ts';
import { type PrecacheManifest, SHELL_URL } from './precache-manifest.ts';

export const precacheName = (manifest: PrecacheManifest) => `${PRECACHE_PREFIX}${manifest.version}`;

/**
 * Fetches every file of the build into this version's cache. `cache: 'reload'` skips the HTTP
 * cache: the shell is cached by browsers for an hour and must be this build's. One failure fails
 * the install, and the version before stays in charge.
 */
export async function installPrecache(manifest: PrecacheManifest): Promise<void> {
  const cache = await caches.open(precacheName(manifest));
  await cache.addAll(manifest.entries.map((entry) => new Request(entry.url, { cache: 'reload' })));
}

/**
 * Deletes the precaches of every version but this one and the one before it. The one before stays:
 * a tab opened on it still asks for its own route chunks (which a new build names differently and
 * the server no longer has) until it reloads. A tab two versions behind that misses a chunk
 * reloads itself (frontend/routes.tsx, docs/installable-app.md).
 */
export async function dropOldPrecaches(manifest: PrecacheManifest): Promise<void> {
  const current = precacheName(manifest);
  // Cache names come in the order they were created: the last other one is the previous version.
  const older = (await caches.keys()).filter((name) => name.startsWith(PRECACHE_PREFIX) && name !== current);
  await Promise.all(older.slice(0, -1).map((name) => caches.delete(name)));
}

/** A precached file of this version or the one before (file names carry their content's hash). */
export async function precached(request: Request | string): Promise<Response | undefined> {
  for (const name of await caches.keys()) {
    if (!name.startsWith(PRECACHE_PREFIX)) continue;
    const found = await (await caches.open(name)).match(request, { ignoreSearch: true, ignoreVary: true });
    if (found) return found;
  }
  return undefined;
}

/** The shell of this version, which opens any route when the network does not answer. */
export async function cachedShell(manifest: PrecacheManifest): Promise<Response | undefined> {
  return (await (await caches.open(precacheName(manifest))).match(SHELL_URL)) ?? precached(SHELL_URL);
}
