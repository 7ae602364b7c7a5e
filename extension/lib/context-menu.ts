// "Save to Pinboard" on an image's context menu. The page's content script opens the board picker
// beside the image (one more click saves). A tab without it — open since before the extension was
// installed, or a page extensions may not script — saves at once to the board used last, and the
// toolbar badge says so.
import { browser } from './browser.ts';
import { refreshPageBadges } from './badge.ts';
import type { ContentRequest } from './messages.ts';
import { connectedApi } from './requests.ts';
import { saveImages } from './save.ts';
import { recentBoards, rememberBoardUsed } from './settings.ts';

export const MENU_ID = 'pinboard-save-image';

export async function openPickerOrSave(tabId: number, src: string, pageUrl: string, pageTitle: string): Promise<void> {
  const api = await connectedApi();
  if (!api) {
    // Not connected yet: the options page says how.
    await browser.runtime.openOptionsPage();
    return;
  }
  const request: ContentRequest = { type: 'open-picker', src };
  try {
    await browser.tabs.sendMessage(tabId, request, { frameId: 0 });
    return;
  } catch {
    // No content script in that tab: save without a picker.
  }
  const board = (await recentBoards())[0] ?? null;
  try {
    const outcome = await saveImages(api, [{ src, alt: '' }], { url: pageUrl, title: pageTitle }, board);
    if (board && outcome.saved.length) await rememberBoardUsed(board);
    await refreshPageBadges(api, pageUrl);
    await browser.action.setTitle({ tabId, title: outcome.saved.length ? `Saved to ${board?.name ?? 'your pins'}` : `Not saved: ${outcome.failed[0]?.message ?? ''}` });
  } catch (error) {
    await browser.action.setTitle({ tabId, title: `Not saved: ${error instanceof Error ? error.message : String(error)}` });
  }
}
