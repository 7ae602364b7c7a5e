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
