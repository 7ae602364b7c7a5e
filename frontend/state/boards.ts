import { atom } from 'jotai';
import type { Board, BoardPin } from '../../contract/index.ts';
import { boardsByIdAtom, boardsLoadedAtom } from './atoms.ts';
import { toById, without } from './byId.ts';
import type { Store } from './store.ts';

/** The signed-in user's boards, in creation order. */
export const boardListAtom = atom((get) => Object.values(get(boardsByIdAtom)).sort((a, b) => a.id - b.id));

export function setAllBoards(store: Store, boards: readonly Board[]): void {
  store.set(boardsByIdAtom, toById(boards));
  store.set(boardsLoadedAtom, true);
}

export function upsertBoard(store: Store, board: Board): void {
  store.set(boardsByIdAtom, (prev) => ({ ...prev, [board.id]: board }));
}

export function removeBoard(store: Store, boardId: number): void {
  store.set(boardsByIdAtom, (prev) => without(prev, boardId));
}

/** Adds a pin to a known board (no-op when the board is unknown or already holds the pin). */
export function addPinToBoard(store: Store, boardId: number, pin: BoardPin): void {
  const board = store.get(boardsByIdAtom)[boardId];
  if (!board || board.pins.some((p) => p.id === pin.id)) return;
  store.set(boardsByIdAtom, (prev) => ({
    ...prev,
    [boardId]: { ...board, pins: [...board.pins, { id: pin.id, title: pin.title, image_url: pin.image_url }] },
  }));
}

export function removePinFromBoard(store: Store, boardId: number, pinId: number): void {
  const board = store.get(boardsByIdAtom)[boardId];
  if (!board || !board.pins.some((p) => p.id === pinId)) return;
  store.set(boardsByIdAtom, (prev) => ({ ...prev, [boardId]: { ...board, pins: board.pins.filter((p) => p.id !== pinId) } }));
}

/** "7" → "07" (SPEC §9). */
export function formatPinCount(count: number): string {
  return String(count).padStart(2, '0');
}
