// Paged lists (docs/paging.md): every screen's list is an ordered array of ids plus the cursor of the
// next page; the entities themselves stay in the by-id atoms (./atoms.ts), so a live update patches
// every list that shows the entity. One atom per list key, made on first use; lists nobody shows
// are forgotten beyond MAX_LISTS (oldest first) and simply load again when shown.
import { atom, type PrimitiveAtom } from 'jotai';
import type { LoadFailure } from './load-failure.ts';
import type { Store } from './store.ts';

/** `notFound`: page one answered 404 (or 403): the list's owner (a board) does not exist for us. */
export type ListStatus = 'idle' | 'loading' | 'ready' | 'error' | 'notFound';

export interface PagedList {
  /** The ids in the list's order, each once. */
  readonly ids: readonly number[];
  /** The cursor of the next page; null when the last page is here (or none was fetched yet). */
  readonly nextCursor: string | null;
  /** Pages fetched since the list was last reset (0: page one has not arrived yet). */
  readonly pages: number;
  readonly status: ListStatus;
  /** With `error`: what went wrong, in words (./load-failure.ts). */
  readonly failure?: LoadFailure;
}

export const EMPTY_LIST: PagedList = { ids: [], nextCursor: null, pages: 0, status: 'idle' };

/** The list keys, one place for their spelling. */
export const LIST = {
  /** The home grid of one visit (one history entry). */
  home: (visit: string) => `home:${visit}`,
  yourPins: (userId: number) => `your-pins:${userId}`,
  userPins: (userId: number) => `user-pins:${userId}`,
  favorites: (userId: number) => `favorites:${userId}`,
  boards: (userId: number) => `boards:${userId}`,
  /** The boards of someone's profile that the reader shares with them. */
  profileBoards: (userId: number) => `profile-boards:${userId}`,
  /** A board's pins (the board page and its Manage Pins page share it). */
  board: (boardId: number) => `board:${boardId}`,
  comments: (pinId: number) => `comments:${pinId}`,
} as const;

// ---- Pure steps ----

/** A page appended: ids already listed are skipped (pages can overlap when the data moved). */
export function appendPage(list: PagedList, ids: readonly number[], nextCursor: string | null): PagedList {
  const seen = new Set(list.ids);
  const fresh = ids.filter((id) => !seen.has(id) && (seen.add(id), true));
  return { ids: fresh.length ? [...list.ids, ...fresh] : list.ids, nextCursor, pages: list.pages + 1, status: 'ready' };
}

/** Page one again, from scratch (first load, a reload after a delete, a refused cursor). */
export function firstPage(ids: readonly number[], nextCursor: string | null): PagedList {
  return appendPage(EMPTY_LIST, ids, nextCursor);
}

/**
 * Page one fetched again over a list that has more (after a reconnect), newest first: the page
 * replaces the part of the list it covers, so what was added meanwhile comes first and what was
 * removed meanwhile goes, and the later pages already loaded stay, with their cursor.
 */
export function mergeFirstPage(list: PagedList, ids: readonly number[], nextCursor: string | null): PagedList {
  if (nextCursor === null || list.ids.length <= ids.length) return firstPage(ids, nextCursor);
  const fresh = new Set(ids);
  let cut = 0;
  list.ids.forEach((id, index) => {
    if (fresh.has(id)) cut = index + 1;
  });
  if (cut === 0) cut = ids.length;
  const rest = list.ids.slice(cut).filter((id) => !fresh.has(id));
  return { ids: [...ids, ...rest], nextCursor: list.nextCursor, pages: list.pages, status: 'ready' };
}

/** An item added at the top (newest first lists); no-op when listed or when nothing is loaded. */
export function withFirst(list: PagedList, id: number): PagedList {
  if (list.pages === 0 || list.ids.includes(id)) return list;
  return { ...list, ids: [id, ...list.ids] };
}

export function withoutId(list: PagedList, id: number): PagedList {
  return list.ids.includes(id) ? { ...list, ids: list.ids.filter((x) => x !== id) } : list;
}

// ---- Atoms ----

const MAX_LISTS = 64;
const atoms = new Map<string, PrimitiveAtom<PagedList>>();
const shown = new Map<string, number>();

/** The atom of one list (made on first use). */
export function listAtom(key: string): PrimitiveAtom<PagedList> {
  let found = atoms.get(key);
  if (found) {
    atoms.delete(key); // re-inserted last: the most recently used
    atoms.set(key, found);
    return found;
  }
  found = atom<PagedList>(EMPTY_LIST);
  atoms.set(key, found);
  for (const old of atoms.keys()) {
    if (atoms.size <= MAX_LISTS) break;
    if (!shown.has(old) && old !== key) atoms.delete(old);
  }
  return found;
}

/** Some screen shows the list now (a list nobody shows is not fetched again after a failure). */
export function isShown(key: string): boolean {
  return shown.has(key);
}

/** A screen shows the list until the returned function is called (it is then not forgotten). */
export function showList(key: string): () => void {
  shown.set(key, (shown.get(key) ?? 0) + 1);
  return () => {
    const n = shown.get(key) ?? 0;
    if (n <= 1) shown.delete(key);
    else shown.set(key, n - 1);
  };
}

export function getList(store: Store, key: string): PagedList {
  const found = atoms.get(key);
  return found ? store.get(found) : EMPTY_LIST;
}

/** Changes a list if it exists (a list nobody loaded is left alone). */
export function updateList(store: Store, key: string, change: (list: PagedList) => PagedList): void {
  const found = atoms.get(key);
  if (found) store.set(found, change);
}

/** Changes every existing list whose key starts with `prefix`. */
export function updateLists(store: Store, prefix: string, change: (list: PagedList) => PagedList): void {
  for (const [key, found] of atoms) if (key.startsWith(prefix)) store.set(found, change);
}
