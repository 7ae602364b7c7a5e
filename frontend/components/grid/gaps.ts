import type { Positioner } from 'masonic';
import type { Slots } from './slots.ts';

// A slot whose pin left the list (deleted, removed from the board) is a gap (./slots.ts). Closing a
// gap moves the cards below it in its column up. Above the viewport that moves what the reader is
// looking at (three pins deleted up there moved 8 of 25 cards in view by 455 px), so a gap that
// opens above the viewport keeps its card's box — an empty placeholder — and closes only once it is
// below the viewport (the reader scrolled up past it), where nothing seen moves; the next visit
// lays the grid out without it. A gap in view or below closes at once.

/** The slot indexes of the ids that left the list. */
export function gapIndexes(slots: Slots): number[] {
  const out: number[] = [];
  if (slots.gone.size) slots.ids.forEach((id, index) => slots.gone.has(id) && out.push(index));
  return out;
}

/** The viewport in grid coordinates. */
export interface View {
  top: number;
  bottom: number;
}

/**
 * Closes the gaps that may close (a closed gap is a height of minus one gutter, so its column
 * closes up exactly) and keeps the others, remembering in `held` which gaps are placeholders.
 * Returns true when the layout changed.
 */
export function settleGaps(positioner: Positioner, slots: Slots, gaps: readonly number[], held: Set<number>, view: View, gutter: number): boolean {
  const updates: number[] = [];
  for (const index of gaps) {
    const position = positioner.get(index);
    const id = slots.ids[index];
    if (!position || id === undefined || position.height === -gutter) continue;
    const closes = held.has(id) ? position.top >= view.bottom : position.top >= view.top;
    if (closes) {
      held.delete(id);
      updates.push(index, -gutter);
    } else held.add(id);
  }
  if (updates.length) positioner.update(updates);
  return updates.length > 0;
}
