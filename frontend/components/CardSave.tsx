import { useAtomValue, useStore } from 'jotai';
import { savedPinIdsAtom, openSaveSheet, type SaveTarget } from '../state/save-sheet.ts';
import { useCardTabIndex } from './grid/card-focus.tsx';
import { MoreIcon } from './Icons.tsx';

/**
 * Save on a grid card (over its image, shown on hover or keyboard focus): opens the save sheet
 * (./SaveSheet.tsx). Once the pin is in one of the user's boards it reads "Saved".
 */
export function CardSave({ pin }: { pin: SaveTarget }) {
  const store = useStore();
  const saved = useAtomValue(savedPinIdsAtom).has(pin.id);
  return (
    <button
      type="button"
      className={`card-save${saved ? ' card-save--saved' : ''}`}
      onClick={() => openSaveSheet(store, pin)}
      aria-label={saved ? `Saved: save ${pin.title} to another board` : `Save ${pin.title} to a board`}
      aria-haspopup="dialog"
      tabIndex={useCardTabIndex()}
    >
      {saved ? 'Saved' : 'Save'}
    </button>
  );
}

/**
 * The card's "…" on touch screens (no hover), under the image beside the title: the image itself
 * stays clean, and the same save sheet opens from here.
 */
export function CardMore({ pin }: { pin: SaveTarget }) {
  const store = useStore();
  return (
    <button type="button" className="card-more" onClick={() => openSaveSheet(store, pin)} aria-label={`More for ${pin.title}: save, share`} aria-haspopup="dialog" tabIndex={useCardTabIndex()}>
      <MoreIcon />
    </button>
  );
}
