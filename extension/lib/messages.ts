// The messages the extension's parts send each other (browser.runtime / browser.tabs). The
// background does every server call; content scripts and the popup ask it.
import type { ImageToSave, PageRef, SaveOutcome } from './save.ts';
import type { BoardRef } from './settings.ts';
import type { Preview } from './shown-images.ts';

/** An image of the page as the content script sees it (natural size: the file's own pixels). */
export interface PageImage {
  src: string;
  alt: string;
  width: number;
  height: number;
}

/** To the background. */
export type BackgroundRequest =
  | { type: 'status' }
  | { type: 'boards'; cursor: string | null }
  | { type: 'create-board'; name: string }
  /** The picture's bytes for the confirmation's preview (kept for the save: lib/shown-images.ts). */
  | { type: 'preview'; src: string; pageUrl: string }
  | { type: 'save'; images: ImageToSave[]; page: PageRef; board: BoardRef | null }
  | { type: 'undo'; pinIds: number[]; pageUrl: string }
  | { type: 'connect'; server: string; token: string }
  | { type: 'set-server'; server: string }
  | { type: 'disconnect' };

export interface Status {
  server: string;
  username: string | null;
  version: string;
}

export type Failure = { ok: false; message: string; reconnect?: boolean };

export interface BoardChoices {
  recent: BoardRef[];
  boards: BoardRef[];
  nextCursor: string | null;
}

export type BackgroundAnswer<R extends BackgroundRequest> = R extends { type: 'status' }
  ? Status
  : R extends { type: 'boards' }
    ? ({ ok: true } & BoardChoices) | Failure
    : R extends { type: 'create-board' }
      ? { ok: true; board: BoardRef } | Failure
      : R extends { type: 'preview' }
        ? PreviewAnswer | Failure
        : R extends { type: 'save' }
          ? ({ ok: true; board: BoardRef | null } & SaveOutcome) | Failure
          : R extends { type: 'connect' }
            ? { ok: true; username: string } | Failure
            : { ok: true } | Failure;

/** `preview` null: the bytes cannot be had (`reason`); saving then asks the server to import the address. */
export type PreviewAnswer = { ok: true; preview: Preview; reason?: undefined } | { ok: true; preview: null; reason: string };

/** To a tab's content script (top frame). */
export type ContentRequest =
  | { type: 'list-images' }
  /** The context menu's "Save to Pinboard" on this image: open the board picker for it. */
  | { type: 'open-picker'; src: string };

export interface ImageList {
  page: PageRef;
  images: PageImage[];
}
