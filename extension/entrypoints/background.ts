// The service worker (Chromium) / event page (Firefox): the image context menu, the toolbar badge,
// and the answers to the popup, the options page and the content scripts (lib/requests.ts).
import { browser, type Browser } from '../lib/browser.ts';
import { defineBackground } from 'wxt/utils/define-background';
import { refreshBadge } from '../lib/badge.ts';
import { MENU_ID, openPickerOrSave } from '../lib/context-menu.ts';
import type { BackgroundRequest } from '../lib/messages.ts';
import { answer, connectedApi } from '../lib/requests.ts';
import { readConnection } from '../lib/settings.ts';

function createMenu(): void {
  // removeAll first: onInstalled runs again on every update, and an id may exist only once.
  void browser.contextMenus.removeAll().then(() => {
    browser.contextMenus.create({ id: MENU_ID, title: 'Save to Pinboard', contexts: ['image'] });
  });
}

async function onMenuClick(info: Browser.contextMenus.OnClickData, tab?: Browser.tabs.Tab): Promise<void> {
  if (info.menuItemId !== MENU_ID || !info.srcUrl || tab?.id === undefined) return;
  await openPickerOrSave(tab.id, info.srcUrl, info.pageUrl ?? tab.url ?? '', tab.title ?? '');
}

async function onTabChanged(tabId: number, url: string | undefined): Promise<void> {
  await refreshBadge(await connectedApi(), tabId, url);
}

export default defineBackground(() => {
  browser.runtime.onInstalled.addListener((details) => {
    createMenu();
    // A fresh install asks for the server's address first.
    if (details.reason === 'install') void readConnection().then((c) => (c.server ? undefined : browser.runtime.openOptionsPage()));
  });
  browser.runtime.onStartup.addListener(createMenu);
  browser.contextMenus.onClicked.addListener((info, tab) => void onMenuClick(info, tab));

  browser.runtime.onMessage.addListener((request: BackgroundRequest, sender, sendResponse) => {
    // sendResponse and `true` (not a returned promise): the form both Chromium and Firefox accept.
    answer(request, sender).then(sendResponse, (error: unknown) => sendResponse({ ok: false, message: String(error) }));
    return true;
  });

  browser.tabs.onUpdated.addListener((tabId, change, tab) => {
    if (change.status === 'complete' || change.url) void onTabChanged(tabId, tab.url);
  });
  browser.tabs.onActivated.addListener(({ tabId }) => {
    void browser.tabs.get(tabId).then(
      (tab) => onTabChanged(tabId, tab.url),
      () => undefined,
    );
  });

  // The browser's context menu cannot be clicked by a test driver: the end-to-end test calls this,
  // the very handler the menu calls, from the service worker (docs/extension.md, "Tests").
  Object.assign(globalThis, { pinboardContextMenuClicked: onMenuClick });
});
