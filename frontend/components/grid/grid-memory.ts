// Back returns to the same card at the same place (docs/grid.md): when a grid goes away its layout
// is kept under its history entry (./snapshots.ts); when it comes back, the card that was at the
// viewport's centre is put back there.
import { useStore } from 'jotai';
import type { Positioner } from 'masonic';
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
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
  // At the very top the place is the top itself, whatever the layout is when the reader comes back.
  if (scrollY <= 0) return null;
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
  columns: GridColumns;
  /** The card last focused or clicked (its id): it has the focus again after Back. */
  touched: RefObject<number | null>;
  /** The grid's list of cells, where that card's link is looked for. */
  container: RefObject<HTMLElement | null>;
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
  const scrollY = usePageScroll();
  useFocusReturn(saved?.focus ?? null, live, () => restore.current === null);
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
      const { slots: s, positioner: p, box: b, columns: c, touched } = current.current;
      const y = scrollY.current;
      saveGridSnapshot(store, restoreKey, {
        slots: s,
        columns: c.count,
        columnWidth: p.columnWidth,
        heights: p
          .all()
          .slice(0, p.size())
          .map((item) => item.height),
        anchor: anchorAt(p, s, b, y),
        scrollY: y,
        focus: touched.current,
      });
    },
    [store, restoreKey, scrollY],
  );
  return () => restore.current !== null;
}

/**
 * The page's scroll position as the reader last left it. Read when the grid unmounts, the page
 * itself no longer tells: the next page's content is already in, and a shorter page has clamped
 * it; and the grid's own scrollTop (masonic's, 12 updates a second, and 0 anywhere above the grid)
 * put a return to the top 85 px down, under the bar.
 */
function usePageScroll(): RefObject<number> {
  const y = useRef(typeof window === 'undefined' ? 0 : window.scrollY);
  useEffect(() => {
    const read = () => (y.current = window.scrollY);
    read();
    window.addEventListener('scroll', read, { passive: true });
    return () => window.removeEventListener('scroll', read);
  }, []);
  return y;
}

/**
 * Gives the focus back to the card that had it (or was clicked) when the grid was left, once the
 * place is restored and that card is mounted and laid out; without scrolling, so the place stays.
 */
function useFocusReturn(id: number | null, { slots, container }: Live, placed: () => boolean): void {
  const pending = useRef(id);
  useLayoutEffect(() => {
    const wanted = pending.current;
    if (wanted === null || !placed()) return;
    const index = slots.ids.indexOf(wanted);
    if (index < 0) {
      pending.current = null;
      return;
    }
    const cell = container.current?.querySelector<HTMLElement>(`[data-slot="${index}"]`);
    const link = cell?.querySelector<HTMLElement>('[data-card-link]');
    if (!cell || !link || cell.style.visibility === 'hidden') return;
    pending.current = null;
    // Something else already took the focus (the reader tabbed or typed): leave it there.
    if (document.activeElement && document.activeElement !== document.body && document.activeElement.id !== 'main') return;
    link.focus({ preventScroll: true });
  });
}
