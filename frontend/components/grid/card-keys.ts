import type { Positioner } from 'masonic';

// Arrow keys between the cards of a masonry grid (with ./card-focus.tsx): Up and Down go to the
// card above or below in the same column, Left and Right to the card of the next column that sits
// nearest the same height, Home and End to the first and last card laid out. Read from the
// positioner, so it works for cards that are not mounted (the grid scrolls to them).

const KEYS = ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End'] as const;
export type GridKey = (typeof KEYS)[number];

export function isGridKey(key: string): key is GridKey {
  return (KEYS as readonly string[]).includes(key);
}

/**
 * The slot `key` moves to from slot `from`, or null when there is none that way. `count` slots are
 * laid out at most; `usable` says whether a slot holds a card (not a gap left by a removed pin).
 */
export function targetSlot(positioner: Positioner, count: number, from: number, key: GridKey, usable: (index: number) => boolean): number | null {
  const here = positioner.get(from);
  if (!here) return null;
  const all = positioner.all();
  const laidOut = Math.min(count, positioner.size());
  const middle = here.top + here.height / 2;
  let best: number | null = null;
  let bestScore = Infinity;
  for (let index = 0; index < laidOut; index++) {
    const item = all[index];
    if (!item || (index === from && key !== 'Home' && key !== 'End') || item.height <= 0 || !usable(index)) continue;
    let score: number;
    switch (key) {
      case 'ArrowDown':
        score = item.column === here.column && item.top > here.top ? item.top : Infinity;
        break;
      case 'ArrowUp':
        score = item.column === here.column && item.top < here.top ? -item.top : Infinity;
        break;
      case 'ArrowRight':
      case 'ArrowLeft': {
        const column = here.column + (key === 'ArrowRight' ? 1 : -1);
        score = item.column === column ? Math.abs(item.top + item.height / 2 - middle) : Infinity;
        break;
      }
      case 'Home':
        score = item.top * 1e4 + item.left;
        break;
      case 'End':
        score = -(item.top * 1e4 + item.left);
        break;
    }
    if (score < bestScore) {
      bestScore = score;
      best = index;
    }
  }
  return best;
}
