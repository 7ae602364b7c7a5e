// The worker's caches (docs/installable-app.md). The precache is one cache per build version, so a
// new version installs beside the old one and tabs still running the old one find their files.

export const PRECACHE_PREFIX = 'pinboard-precache-';
export const IMAGE_CACHE = 'pinboard-images';
export const API_CACHE = 'pinboard-api';
/** Files shared to the app (the share target), until the pin builder has uploaded them. */
export const SHARED_FILE_CACHE = 'pinboard-shared';

/** Where a shared file is kept in SHARED_FILE_CACHE: a key of this site that the server never answers. */
export const sharedFileKey = (id: string) => `/shared-file/${encodeURIComponent(id)}`;
/** The header that keeps a shared file's name beside its bytes (URI-encoded: names may be any text). */
export const SHARED_FILE_NAME_HEADER = 'X-Pinboard-File-Name';
