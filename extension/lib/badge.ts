// The toolbar badge: how many of the user's pins were saved from the tab's page (GET
// /api/pins/lookup), so a page already saved shows it. Answers are kept a minute per address, and
// forgotten when a save or an undo from the extension changes them.
import { browser } from './browser.ts';
import type { PinboardApi } from './pinboard-api.ts';
import { sourceUrlOf } from './pin-text.ts';

const KEEP_MS = 60_000;
const MAX_KEPT = 200;
/** The server answers at most this many pins from one page (PIN_LOOKUP_MAX in contract/pin-lookup.ts). */
const LOOKUP_MAX = 50;
const known = new Map<string, { count: number; at: number }>();

function forgetPage(pageUrl: string): void {
  const source = sourceUrlOf(pageUrl);
  if (source) known.delete(source);
}

export function forgetAllPages(): void {
  known.clear();
}

async function savedCount(api: PinboardApi, source: string): Promise<number> {
  const kept = known.get(source);
  if (kept && Date.now() - kept.at < KEEP_MS) return kept.count;
  const { pins } = await api.lookup(source);
  if (known.size >= MAX_KEPT) known.delete(known.keys().next().value as string);
  known.set(source, { count: pins.length, at: Date.now() });
  return pins.length;
}

async function showBadge(tabId: number, count: number): Promise<void> {
  const text = count === 0 ? '' : count >= LOOKUP_MAX ? `${LOOKUP_MAX}+` : String(count);
  const title = count === 0 ? 'Save to Pinboard' : `Save to Pinboard: ${text} ${count === 1 ? 'pin' : 'pins'} already saved from this page`;
  await browser.action.setBadgeText({ tabId, text });
  await browser.action.setBadgeBackgroundColor({ tabId, color: '#c8102e' });
  await browser.action.setTitle({ tabId, title });
}

/** Looks the tab's page up (when connected) and shows the result; a failed lookup clears the badge. */
export async function refreshBadge(api: PinboardApi | null, tabId: number, pageUrl: string | undefined): Promise<void> {
  const source = pageUrl ? sourceUrlOf(pageUrl) : null;
  let count = 0;
  if (api && source && new URL(source).origin !== api.server) {
    try {
      count = await savedCount(api, source);
    } catch {
      count = 0;
    }
  }
  await showBadge(tabId, count).catch(() => undefined); // the tab may have closed meanwhile
}

/** After a save or an undo: every open tab showing that page gets its count anew. */
export async function refreshPageBadges(api: PinboardApi, pageUrl: string): Promise<void> {
  const source = sourceUrlOf(pageUrl);
  forgetPage(pageUrl);
  if (!source) return;
  const tabs = await browser.tabs.query({});
  await Promise.all(tabs.filter((tab) => tab.id !== undefined && tab.url && sourceUrlOf(tab.url) === source).map((tab) => refreshBadge(api, tab.id as number, tab.url)));
}
