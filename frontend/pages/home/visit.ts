// The home grid's order is fixed once per visit (docs/product.md §2): a visit draws a seed for
// GET /api/pins/?order=shuffle&seed=S and keeps it in its history entry (by location.key), so
// Back from a pin returns to the same order, while a new visit — the logo (a new entry) or a reload
// of "/" — draws a new one. The seed is also written to sessionStorage, so a Back into a page the
// browser had to load again (it dropped the document) still finds its order.
import { atom, useAtomValue, useStore } from 'jotai';
import { useLayoutEffect } from 'react';
import { HOME_FIRST_PAGE_ID, HOME_SEED_META, type HomeFirstPage } from '../../../contract/home.ts';
import { LIMITS } from '../../../contract/limits.ts';
import type { PinList } from '../../../contract/pins.ts';
import type { Store } from '../../state/store.ts';

export interface HomeVisit {
  seed: number;
  /** The newest pin id when the visit began: pins above it are new to the reader. Null until known. */
  newestId: number | null;
}

const MAX_VISITS = 20;
const visitsAtom = atom<Readonly<Record<string, HomeVisit>>>({});
const storageKey = (key: string) => `pinboard.home.${key}`;

function randomSeed(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0]! % (LIMITS.maxId + 1);
}

/**
 * The seed the server chose for this document's home page (and preloaded its first page with):
 * taken once, by the first home visit of the document; later visits draw their own.
 */
function servedSeed(): number | null {
  const meta = document.querySelector(`meta[name="${HOME_SEED_META}"]`);
  if (!meta) return null;
  meta.remove();
  const raw = meta.getAttribute('content') ?? '';
  return /^[0-9]{1,10}$/.test(raw) && Number(raw) <= LIMITS.maxId ? Number(raw) : null;
}

/**
 * The first page of the shuffle for `seed` that the server put in this document's HTML, taken once:
 * null when there is none, it was taken, or it belongs to another seed (a visit restored by Back).
 */
export function takeServedPage(seed: number): PinList | null {
  const element = document.getElementById(HOME_FIRST_PAGE_ID);
  if (!element) return null;
  element.remove();
  try {
    const served = JSON.parse(element.textContent ?? '') as HomeFirstPage;
    return served.seed === seed && Array.isArray(served.page?.pins) ? served.page : null;
  } catch {
    return null; // not what the server writes: the page is fetched instead
  }
}

/** True when this document was opened by Back/Forward (not by a link or a reload). */
function openedByHistory(): boolean {
  const [entry] = performance.getEntriesByType?.('navigation') ?? [];
  return (entry as PerformanceNavigationTiming | undefined)?.type === 'back_forward';
}

function storedSeed(key: string): number | null {
  try {
    const raw = sessionStorage.getItem(storageKey(key));
    return raw !== null && /^[0-9]{1,10}$/.test(raw) && Number(raw) <= LIMITS.maxId ? Number(raw) : null;
  } catch {
    return null; // storage blocked: the visit simply gets a new order
  }
}

function storeSeed(key: string, seed: number): void {
  try {
    sessionStorage.setItem(storageKey(key), String(seed));
  } catch {
    // storage full or blocked: Back within this document still works from memory
  }
}

function setVisit(store: Store, key: string, visit: HomeVisit): void {
  store.set(visitsAtom, (prev) => {
    const next: Record<string, HomeVisit> = { ...prev };
    delete next[key];
    next[key] = visit;
    const keys = Object.keys(next);
    for (const old of keys.slice(0, Math.max(0, keys.length - MAX_VISITS))) delete next[old];
    return next;
  });
}

/** The visit of this history entry, made (with a new seed) the first time the entry shows home. */
export function useHomeVisit(key: string): HomeVisit | null {
  const store = useStore();
  const visit = useAtomValue(visitsAtom)[key] ?? null;
  useLayoutEffect(() => {
    if (store.get(visitsAtom)[key]) return;
    const seed = (openedByHistory() ? storedSeed(key) : null) ?? servedSeed() ?? randomSeed();
    storeSeed(key, seed);
    setVisit(store, key, { seed, newestId: null });
  }, [store, key]);
  return visit;
}

export function setNewestId(store: Store, key: string, newestId: number): void {
  const visit = store.get(visitsAtom)[key];
  if (visit && visit.newestId === null) setVisit(store, key, { ...visit, newestId });
}
