// The installable app's share target (docs/installable-app.md): what a share posts, and the pin
// builder address it is answered with, by the service worker (frontend/sw/share-target.ts) or, when
// no worker took it, by the server (backend/http/share-target.ts).

/** Where the web app manifest's share_target posts. */
export const SHARE_TARGET_PATH = '/share-target';
/** The form fields of a share; the picture comes as the file field `image`. */
export const SHARE_FIELDS = ['title', 'text', 'url'] as const;
export const SHARE_FILE_FIELD = 'image';
/** The pin builder's parameter naming a shared file the worker kept. */
export const SHARED_PARAM = 'shared';
/** Its value when the share had a file that could not be kept (the server cannot keep one). */
export const SHARED_FILE_LOST = 'lost';
/** The longest shared title, text or URL carried into the builder's address (longer is cut). */
const FIELD_LIMIT = 2000;

export type SharedFields = Partial<Record<(typeof SHARE_FIELDS)[number], string>>;

/** The pin builder's address for a share: its text fields, and `shared` naming the kept file. */
export function builderAddress(fields: SharedFields, shared: string | null): string {
  const params = new URLSearchParams();
  for (const name of SHARE_FIELDS) {
    const value = fields[name]?.trim().slice(0, FIELD_LIMIT);
    if (value) params.set(name, value);
  }
  if (shared) params.set(SHARED_PARAM, shared);
  return `/pin-builder?${params.toString()}`;
}
