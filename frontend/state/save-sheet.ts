// The save sheet (components/SaveSheet.tsx): one dialog for the whole app, opened by a card's Save
// (or its "…" on a touch screen) and by the pin page's Save for signed-out visitors. A signed-out
// visitor who logs in from it comes back to the same history entry with the sheet open again for
// the same pin (the `pending` save), instead of on a new visit of the page.
import { atom } from 'jotai';
import type { BoardPin } from '../../contract/index.ts';
import { boardRecordsAtom } from './atoms.ts';
import type { Store } from './store.ts';

/** What the sheet needs of a pin. */
export type SaveTarget = BoardPin;

export const saveSheetAtom = atom<SaveTarget | null>(null);

/** A save started signed out: reopened when the visitor is back on `entryKey` signed in. */
export interface PendingSave {
  pin: SaveTarget;
  /** The history entry (location.key) the save was started on. */
  entryKey: string;
}
export const pendingSaveAtom = atom<PendingSave | null>(null);

export function openSaveSheet(store: Store, pin: SaveTarget): void {
  store.set(saveSheetAtom, { id: pin.id, title: pin.title, image_url: pin.image_url, image: pin.image });
}

export function closeSaveSheet(store: Store): void {
  store.set(saveSheetAtom, null);
}

/**
 * Pins known to be in one of the user's boards: among the boards' covers (their newest pins), which
 * a save updates at once. A card shows "Saved" for them.
 */
export const savedPinIdsAtom = atom((get) => {
  const saved = new Set<number>();
  for (const board of Object.values(get(boardRecordsAtom))) for (const id of board.coverIds) saved.add(id);
  return saved as ReadonlySet<number>;
});

// Recently used boards (docs/grid.md, "Saving to a board"): the boards a user last saved to come
// first in every board picker, so a user with many boards finds the usual one without scrolling.
// Kept in this browser per user; a board that is gone is simply not listed.
const RECENT_KEEP = 8;
const recentKey = (userId: number) => `pinboard:recent-boards:${userId}`;

/** The user's recently used boards, most recent first (none when storage is unavailable). */
export function recentBoardIds(userId: number): number[] {
  try {
    const raw: unknown = JSON.parse(localStorage.getItem(recentKey(userId)) ?? '[]');
    return Array.isArray(raw) ? raw.filter((id): id is number => Number.isInteger(id)).slice(0, RECENT_KEEP) : [];
  } catch {
    return [];
  }
}

/** Notes that the user saved to `boardId` just now. */
export function rememberBoard(userId: number, boardId: number): void {
  try {
    const next = [boardId, ...recentBoardIds(userId).filter((id) => id !== boardId)].slice(0, RECENT_KEEP);
    localStorage.setItem(recentKey(userId), JSON.stringify(next));
  } catch {
    // Private mode or storage full: the picker keeps its usual order.
  }
}

/** The recently used boards first (most recent first), then the others in the order given. */
export function recentFirst<T extends { id: number }>(boards: readonly T[], recent: readonly number[]): T[] {
  const rank = new Map(recent.map((id, index) => [id, index]));
  const used = boards.filter((board) => rank.has(board.id)).sort((a, b) => (rank.get(a.id) ?? 0) - (rank.get(b.id) ?? 0));
  return [...used, ...boards.filter((board) => !rank.has(board.id))];
}

/** The boards whose name contains every word typed, in any case and accent. */
export function matchBoards<T extends { name: string }>(boards: readonly T[], query: string): T[] {
  const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  const words = fold(query).split(/\s+/).filter(Boolean);
  return words.length === 0 ? [...boards] : boards.filter((board) => words.every((word) => fold(board.name).includes(word)));
}
