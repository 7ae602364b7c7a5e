// The content script, in the top frame of every http(s) page. On other sites: the hover Save
// button, the board picker (for it and for the context menu) and the page's image list for the
// popup. On the user's own Pinboard: only the Connect page's bridge. It runs in the extension's
// isolated world, so a page's Content-Security-Policy (`script-src 'none'`) does not stop it.
import { defineContentScript } from 'wxt/utils/define-content-script';
import { startConnectBridge } from '../content/connect-bridge.ts';
import { startHoverSave } from '../content/hover-save.ts';
import { bestSource, listImages } from '../content/page-images.ts';
import { openPicker, pickerOpen } from '../content/picker.ts';
import { ask } from '../lib/ask.ts';
import { browser } from '../lib/browser.ts';
import type { ContentRequest, Status } from '../lib/messages.ts';

function imageFor(src: string): HTMLImageElement | null {
  return Array.from(document.images).find((image) => image.currentSrc === src || image.src === src) ?? null;
}

function pickerFor(src: string, image: HTMLImageElement | null, server: string) {
  openPicker({ src, alt: (image?.alt || image?.title || '').trim(), rect: image?.getBoundingClientRect() ?? null }, server);
}

/** The context menu's picture: the browser names the one it shows; the same rule as hover Save. */
function menuPicture(srcUrl: string): { src: string; image: HTMLImageElement | null } {
  const image = imageFor(srcUrl);
  return { src: image ? bestSource(image) : srcUrl, image };
}

export default defineContentScript({
  matches: ['http://*/*', 'https://*/*'],
  runAt: 'document_idle',
  main() {
    const status = ask({ type: 'status' }).then((answer) => ('server' in answer ? answer : null)) as Promise<Status | null>;
    // Listening at once (not after the status): a context-menu click right after the page loaded
    // must find the picker, not the no-content-script fallback.
    browser.runtime.onMessage.addListener((request: ContentRequest, _sender, sendResponse) => {
      if (request.type === 'list-images') sendResponse(listImages());
      else if (request.type === 'open-picker') {
        const { src, image } = menuPicture(request.src);
        void status.then((s) => pickerFor(src, image, s?.server ?? ''));
        sendResponse({ ok: true });
      }
      return false;
    });
    void status.then((s) => {
      if (!s) return;
      if (s.server && location.origin === s.server) startConnectBridge(s);
      else if (s.username) startHoverSave((image) => pickerFor(bestSource(image), image, s.server), pickerOpen);
    });
  },
});
