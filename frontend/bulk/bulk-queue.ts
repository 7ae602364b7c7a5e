// Many files at once (docs/import-export.md, "Bulk upload"): one pin per file, each with its own
// progress and error, all into the chosen board. A few files go up at a time (the server takes at
// most a few uploads in flight per user); a refusal that passes (busy, the image budget spent) waits
// and tries again by itself, a refusal of the file itself (not an image, too large) is that file's
// error, with Retry. A picture the user saved already stops before its pin is made (docs/duplicates.md):
// the row says "Already saved", with Open it and Save anyway, instead of a dialog per file.
import type { DuplicatePin } from '../../contract/duplicates.ts';
import type { StoredImage } from '../../contract/images.ts';
import { IMPORT_LIMITS } from '../../contract/import-rules.ts';
import { isApiError } from '../api/client.ts';
import { checkImageFile, uploadImageAndDuplicates } from '../api/images.ts';
import { createPin } from '../api/pins.ts';
import type { Pin } from '../../contract/pins.ts';

/** `seen`: uploaded, and one the user saved already; no pin until Save anyway. */
export type BulkPhase = 'waiting' | 'uploading' | 'saving' | 'done' | 'error' | 'paused' | 'seen';

export interface BulkItem {
  id: number;
  file: File;
  phase: BulkPhase;
  /** 0..1 of the upload. */
  progress: number;
  error: string | null;
  pin: Pin | null;
  /** Until when a passing refusal makes it wait (ms since 1970), or null. */
  retryAt: number | null;
  /** The upload, kept: Save anyway makes the pin from it without sending the file again. */
  image?: StoredImage;
  /** The user's newest pin of the same picture (phase `seen`). */
  duplicate?: DuplicatePin;
  /** Save anyway was pressed: the pin is made though the picture was saved already. */
  saveAnyway?: boolean;
  /** What the picture shows (optional, sent as the pin's alt text); typed while it uploads, or after. */
  altText?: string;
  /** The alt text the pin has (what was last sent), so a change after Pinned is sent once. */
  sentAltText?: string;
}

/** Files sent at once: the server takes a few uploads in flight per user. */
export const BULK_PARALLEL = 3;
const PASSING = new Set([429, 503, 0]);
const MAX_WAITS = 8;

export const BULK_MSG = {
  tooMany: `At most ${IMPORT_LIMITS.bulkFiles} files at once: the first ${IMPORT_LIMITS.bulkFiles} were added.`,
} as const;

/** A pin's title from a file's name: without its extension, separators as spaces. */
export function titleFromFileName(name: string): string {
  const stem = name
    .replace(/\.[A-Za-z0-9]{1,5}$/, '')
    .replace(/[_-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return (stem || 'Untitled').slice(0, 200);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends one file through: upload (progress reported), the pin, the board. Resolves when the item
 * is done or has its error; `update` is called on every change.
 */
export async function sendItem(item: BulkItem, boardId: number | null, update: (patch: Partial<BulkItem>) => void, latest: () => BulkItem = () => item): Promise<void> {
  const local = checkImageFile(item.file);
  if (local) {
    update({ phase: 'error', error: local });
    return;
  }
  for (let wait = 0; ; wait++) {
    try {
      let image = item.image;
      if (!image) {
        update({ phase: 'uploading', progress: 0, error: null, retryAt: null });
        const uploaded = await uploadImageAndDuplicates(item.file, { onProgress: ({ loaded, total }) => update({ progress: total ? loaded / total : 0 }) });
        image = uploaded.image;
        const [duplicate] = uploaded.duplicates;
        if (duplicate && !item.saveAnyway) {
          update({ phase: 'seen', progress: 1, image, duplicate });
          return;
        }
      }
      update({ phase: 'saving', progress: 1, image });
      // The alt text as it is now: the user may have typed it while the file went up.
      const altText = latest().altText?.trim();
      // Made in the board in one call: private when the board is (docs/who-sees-what.md).
      const pin = await createPin({ title: titleFromFileName(item.file.name), imageUrl: image.url, description: '', ...(boardId !== null ? { boardId } : {}), ...(altText ? { altText } : {}) });
      update({ phase: 'done', pin, sentAltText: altText ?? '' });
      return;
    } catch (error) {
      const status = isApiError(error) ? error.status : -1;
      if (PASSING.has(status) && wait < MAX_WAITS) {
        const delay = Math.min(60_000, 2_000 * 2 ** wait);
        update({ phase: 'paused', retryAt: Date.now() + delay, error: isApiError(error) ? error.message : null });
        await sleep(delay);
        continue;
      }
      update({ phase: 'error', error: isApiError(error) ? error.message : 'Something went wrong.' });
      return;
    }
  }
}
