// Back returns to the same card at the same place (docs/grid.md): when a grid goes away its layout
// is kept under its history entry (./snapshots.ts); when it comes back, the card that was at the
// viewport's centre is put back there.
import { useStore } from 'jotai';
import type { Positioner } from 'masonic';
import { useLayoutEffect, useRef, useState } from 'react';
import type { GridColumns } from './columns.ts';
import { readGridSnapshot, saveGridSnapshot, type GridSnapshot } from './snapshots.ts';
import type { Slots } from './slots.ts';

export interface GridBox {
  width: number;
  /** Distance from the document's top to the grid's top. */
  offset: number;
  /** The viewport's height. */
  viewport: number;
  /** How much of the viewport's top the sticky navigation bar covers. */
  covered: number;
}

/** The snapshot this grid was left with, read once when it mounts. */
export function useSavedGrid(restoreKey: string): GridSnapshot | undefined {
  const store = useStore();
  const [saved] = useState(() => readGridSnapshot(store, restoreKey));
  return saved;
}

/** The card at the viewport's centre (nearest the middle column), from the layout alone. */
function anchorAt(positioner: Positioner, slots: Slots, box: GridBox, scrollY: number): GridSnapshot['anchor'] {
  const centre = scrollY + box.viewport / 2 - box.offset;
  if (centre < 0) return null;
  let best: { index: number; top: number; distance: number } | null = null;
  positioner.range(centre, centre, (index, left, top) => {
    const distance = Math.abs(left + positioner.columnWidth / 2 - box.width / 2);
    if (!slots.gone.has(slots.ids[index] ?? -1) && (!best || distance < best.distance)) best = { index, top, distance };
  });
  const found = best as { index: number; top: number } | null;
  const id = found ? slots.ids[found.index] : undefined;
  return found && id !== undefined ? { id, offset: box.offset + found.top - scrollY } : null;
}

interface Live {
  slots: Slots;
  positioner: Positioner;
  box: GridBox;
  scrollTop: number;
  columns: GridColumns;
}

/** How long a restored place is kept while the page above the grid settles. */
const HOLD_MS = 3000;
/** Input that means the reader is moving the page. */
const READER_SCROLLS = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

/**
 * Puts the saved anchor card back at its place (scrolling near it first when it is not measured
 * yet), keeps it there while the page above the grid settles (a pin's picture still loading above
 * "More like this" moves the grid once it has its size) until the reader scrolls, and saves the
 * layout when the grid unmounts. Returns true while the restore is under way.
 */
export function useGridMemory(restoreKey: string, saved: GridSnapshot | undefined, live: Live): () => boolean {
  const store = useStore();
  const restore = useRef(saved ? { anchor: saved.anchor, scrollY: saved.scrollY, tries: 0 } : null);
  const held = useRef<{ anchor: NonNullable<GridSnapshot['anchor']>; y: number; until: number } | null>(null);
  const { slots, positioner, box } = live;
  useLayoutEffect(() => {
    const pending = restore.current;
    if (!pending) {
      const hold = held.current;
      if (!hold || Date.now() > hold.until) {
        held.current = null;
        return;
      }
      const position = positioner.get(slots.ids.indexOf(hold.anchor.id));
      const y = position ? box.offset + position.top - hold.anchor.offset : hold.y;
      if (Math.abs(y - window.scrollY) > 1) window.scrollTo(0, y);
      hold.y = y;
      return;
    }
    const index = pending.anchor ? slots.ids.indexOf(pending.anchor.id) : -1;
    const position = index >= 0 ? positioner.get(index) : undefined;
    if (position && pending.anchor) {
      window.scrollTo(0, box.offset + position.top - pending.anchor.offset);
      held.current = { anchor: pending.anchor, y: window.scrollY, until: Date.now() + HOLD_MS };
      restore.current = null;
      // The reader's own scrolling ends the hold.
      const release = () => {
        held.current = null;
        for (const type of READER_SCROLLS) window.removeEventListener(type, release);
      };
      for (const type of READER_SCROLLS) window.addEventListener(type, release, { passive: true });
    } else if (index < 0 || pending.tries >= 5) {
      if (pending.tries === 0) window.scrollTo(0, pending.scrollY);
      restore.current = null;
    } else {
      // Not measured yet: scrolling near it makes the grid measure up to it.
      if (pending.tries === 0) window.scrollTo(0, pending.scrollY);
      pending.tries += 1;
    }
  });

  const current = useRef(live);
  current.current = live;
  useLayoutEffect(
    () => () => {
      const { slots: s, positioner: p, box: b, scrollTop: top, columns: c } = current.current;
      const scrollY = top + b.offset;
      saveGridSnapshot(store, restoreKey, {
        slots: s,
        columns: c.count,
        columnWidth: p.columnWidth,
        heights: p.all().slice(0, p.size()).map((item) => item.height),
        anchor: anchorAt(p, s, b, scrollY),
        scrollY,
      });
    },
    [store, restoreKey],
  );
  return () => restore.current !== null;
}
