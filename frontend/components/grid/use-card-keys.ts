import type { Positioner } from 'masonic';
import { useCallback, useLayoutEffect, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import { isGridKey, targetSlot } from './card-keys.ts';
import type { Slots } from './slots.ts';

/** Room kept between a card moved to by the keyboard and the viewport's edges (the bar is sticky). */
const EDGE = 16;

function navHeight(): number {
  return document.querySelector('header.nav')?.getBoundingClientRect().height ?? 0;
}

/** Scrolls the least that shows the whole cell below the sticky bar (its top first when taller). */
function reveal(cell: HTMLElement): void {
  const box = cell.getBoundingClientRect();
  const top = navHeight() + EDGE;
  if (box.top < top) window.scrollBy(0, box.top - top);
  else if (box.bottom > window.innerHeight - EDGE) window.scrollBy(0, Math.min(box.bottom - window.innerHeight + EDGE, box.top - top));
}

function typing(target: EventTarget): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}

interface Options {
  positioner: Positioner;
  slots: Slots;
  usable: (index: number) => boolean;
  /** The grid's top in the document, and the viewport's height. */
  offset: number;
  viewport: number;
}

/**
 * The arrow keys of a grid (./card-keys.ts): they move the focus to the next card's main link. A
 * card that is not mounted (beyond the overscan) is scrolled to first and focused once it renders.
 * Also tracks which card holds the focus (`focused`, an id), which ./card-focus.tsx keeps active.
 */
export function useCardKeys({ positioner, slots, usable, offset, viewport }: Options) {
  const containerRef = useRef<HTMLDivElement>(null);
  const [focused, setFocused] = useState<number | null>(null);
  const pending = useRef<number | null>(null);

  const focusSlot = useCallback((index: number): boolean => {
    const cell = containerRef.current?.querySelector<HTMLElement>(`[data-slot="${index}"]`);
    const link = cell?.querySelector<HTMLElement>('[data-card-link]');
    if (!cell || !link || cell.style.visibility === 'hidden') return false;
    link.focus({ preventScroll: true });
    reveal(cell);
    return true;
  }, []);

  // A card scrolled to: focus it as soon as it is mounted.
  useLayoutEffect(() => {
    if (pending.current !== null && focusSlot(pending.current)) pending.current = null;
  });

  function onFocus(event: FocusEvent<HTMLDivElement>) {
    const cell = (event.target as HTMLElement).closest<HTMLElement>('[data-slot]');
    const id = cell ? slots.ids[Number(cell.dataset.slot)] : undefined;
    if (id !== undefined) setFocused(id);
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (!isGridKey(event.key) || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || typing(event.target)) return;
    const cell = (event.target as HTMLElement).closest<HTMLElement>('[data-slot]');
    if (!cell) return;
    const to = targetSlot(positioner, slots.ids.length, Number(cell.dataset.slot), event.key, usable);
    if (to === null) return;
    event.preventDefault();
    pending.current = null;
    if (focusSlot(to)) return;
    pending.current = to;
    const position = positioner.get(to);
    if (position) window.scrollTo(0, offset + position.top - viewport / 3);
  }

  return { containerRef, focused, onKeyDown, onFocus };
}
