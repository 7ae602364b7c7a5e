// Saving images as pins, in the background: for each image, the bytes the user was shown in the
// preview (lib/shown-images.ts) are uploaded and the pin made from the stored copy; when no bytes
// could be had (so none were shown) the pin is made from the image's URL and the server imports
// it. Every pin keeps the page as its source, and goes onto the chosen board. A picture the user saved
// already (the upload's answer, or the server's check of the address: docs/duplicates.md) is not
// made a pin unless the save says `saveAnyway`: the picker and the popup show the warning instead.
import type { DuplicatePin } from '../../contract/duplicates.ts';
import { LIMITS } from '../../contract/limits.ts';
import { fetchImageBytes, type ImageBytes } from './image-bytes.ts';
import { PinboardError, type PinboardApi } from './pinboard-api.ts';
import { importableUrl, pinTitle, sourceUrlOf } from './pin-text.ts';
import type { BoardRef } from './settings.ts';
import { shownBytes } from './shown-images.ts';

export interface ImageToSave {
  src: string;
  alt: string;
  /** A title the user typed; else from `alt` and the page. */
  title?: string;
  /** What the picture shows, for people who cannot see it (the pin's alt text); none when blank. */
  altText?: string;
  /** Save it though the user saved the same picture already (they saw the warning). */
  saveAnyway?: boolean;
  /**
   * What the confirmation showed: the SHA-256 of the previewed bytes (exactly those are uploaded,
   * or nothing), or null when it could show none (the server imports `src`). Absent only where no
   * confirmation is shown: the context menu in a tab without the content script.
   */
  shown?: string | null;
}

export interface PageRef {
  url: string;
  title: string;
}

export interface SavedPin {
  id: number;
  src: string;
  /** `upload`: the bytes the browser had; `url`: the server imports the image by its address. */
  via: 'upload' | 'url';
}

/** A picture not saved because the user saved it already: their newest pin of it. */
export interface SeenPicture {
  src: string;
  duplicate: DuplicatePin;
}

export interface SaveOutcome {
  saved: SavedPin[];
  /** Saved already, so not saved again (each can be sent again with `saveAnyway`). */
  seen: SeenPicture[];
  /** `status`: the server's answer when it refused (404: the board is gone). */
  failed: Array<{ src: string; message: string; status?: number }>;
}

/** Images saved at once: the server thumbnails two at a time, so more would only queue there. */
const PARALLEL = 4;

/** The bytes to upload, or why there are none (then the server may import the address). */
async function bytesFor(image: ImageToSave, pageUrl: string): Promise<ImageBytes | { failed: string }> {
  if (image.shown === null) return { failed: 'no preview could be shown' };
  if (image.shown === undefined) return fetchImageBytes(image.src, pageUrl);
  const bytes = await shownBytes(image.src, pageUrl, image.shown);
  // The user saw these bytes or none: the server's own import of the address could get others.
  if ('failed' in bytes) throw new Error(bytes.failed);
  return bytes;
}

interface Source {
  imageUrl: string;
  via: SavedPin['via'];
  /** The user's pins of the same picture (none known when the address could not be checked). */
  duplicates: DuplicatePin[];
}

async function imageUrlFor(api: PinboardApi, image: ImageToSave, pageUrl: string): Promise<Source> {
  const { src } = image;
  const bytes = await bytesFor(image, pageUrl);
  if ('blob' in bytes) {
    try {
      const { image: stored, duplicates } = await api.uploadImage(bytes.blob, bytes.fileName);
      return { imageUrl: stored.url, via: 'upload', duplicates };
    } catch (error) {
      // A refused token stops everything; so does a refused file the user was shown (the server's
      // import could fetch other bytes). Without a preview, a refused file (a format the server
      // does not take, a busy server) still has its address to fall back on.
      if (error instanceof PinboardError && (error.unauthorized || error.status === 403)) throw error;
      if (typeof image.shown === 'string' || !importableUrl(src)) throw error;
    }
  } else if (!importableUrl(src)) {
    throw new Error(`The image could not be read (${bytes.failed}).`);
  }
  // No bytes here: the server checks the address itself (and stores nothing), unless the user said
  // Save anyway already. A failed check warns of nothing: the import decides.
  const duplicates = image.saveAnyway
    ? []
    : await api.checkPicture(src).catch((error: unknown) => {
        if (error instanceof PinboardError && error.unauthorized) throw error;
        return [];
      });
  return { imageUrl: src, via: 'url', duplicates };
}

async function saveOne(api: PinboardApi, image: ImageToSave, page: PageRef, board: BoardRef | null): Promise<SavedPin | SeenPicture> {
  const { imageUrl, via, duplicates } = await imageUrlFor(api, image, page.url);
  const [duplicate] = duplicates;
  if (duplicate && !image.saveAnyway) return { src: image.src, duplicate };
  // A page's alt attribute can be longer than a pin's alt text: its start is kept.
  const altText = image.altText?.trim().slice(0, LIMITS.altText).trim();
  const title = image.title?.trim() ? pinTitle(image.title, '', page.url) : pinTitle(image.alt, page.title, page.url);
  // Made in its board in one call: all or nothing, and private when the board is (docs/who-sees-what.md).
  const pin = await api.createPin({ title, imageUrl, description: '', sourceUrl: sourceUrlOf(page.url), boardId: board?.id, ...(altText ? { altText } : {}) });
  return { id: pin.id, src: image.src, via };
}

/**
 * Saves every image (a few at a time); resolves with what was saved and what was not, in the
 * order given. Rejects only when the token is refused (401), since then nothing else can succeed.
 */
export async function saveImages(api: PinboardApi, images: ImageToSave[], page: PageRef, board: BoardRef | null): Promise<SaveOutcome> {
  const results: Array<SavedPin | SeenPicture | SaveOutcome['failed'][number]> = new Array(images.length);
  let next = 0;
  let refused: PinboardError | null = null;
  async function worker() {
    while (next < images.length && !refused) {
      const index = next++;
      const image = images[index] as ImageToSave;
      try {
        results[index] = await saveOne(api, image, page, board);
      } catch (error) {
        if (error instanceof PinboardError && error.unauthorized) refused = error;
        results[index] = {
          src: image.src,
          message: error instanceof Error ? error.message : String(error),
          ...(error instanceof PinboardError ? { status: error.status } : {}),
        };
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(PARALLEL, images.length) }, worker));
  if (refused) throw refused;
  const outcome: SaveOutcome = { saved: [], seen: [], failed: [] };
  for (const result of results) {
    if (!result) continue;
    if ('id' in result) outcome.saved.push(result);
    else if ('duplicate' in result) outcome.seen.push(result);
    else outcome.failed.push(result);
  }
  return outcome;
}
