// What the masonry lays out. masonic caches a position per item index, so its item array may only
// grow at the end; any other change needs a new layout from the top (docs/paging.md: removing
// or reordering items otherwise throws "No data was found at index"). So the grid keeps "slots":
// - a list that grew at the end (the next page) appends slots;
// - an id that left the list (a deleted pin, a pin removed from a board) keeps its slot as a gap
//   that the grid collapses, so only the cards below it in its column move up;
// - anything else (new pins prepended from the pill, page one reloaded) starts a new generation,
//   which the grid lays out afresh.
// While more pages are to come only whole rows are laid out, so the bottom edge is even and the
// last few cards wait for the next page instead of dangling alone in one or two columns.

export interface Slots {
  /** Changes when the layout must start again from the top. */
  readonly generation: number;
  /** The ids given to the masonry, in order; within a generation it only grows at the end. */
  readonly ids: readonly number[];
  /** Ids whose slot is a collapsed gap (they left the list). */
  readonly gone: ReadonlySet<number>;
}

const NONE: ReadonlySet<number> = new Set();

/** How many of `total` items to lay out: whole rows of `columns` while more pages are to come. */
export function wholeRows(total: number, columns: number, complete: boolean): number {
  return complete ? total : Math.floor(total / Math.max(1, columns)) * Math.max(1, columns);
}

function fresh(generation: number, ids: readonly number[], columns: number, complete: boolean): Slots {
  return { generation, ids: ids.slice(0, wholeRows(ids.length, columns, complete)), gone: NONE };
}

/**
 * The slots for the list `ids` (each id once), given the previous slots: appended, gapped or laid
 * out afresh. Returns `prev` itself when nothing changes, so the masonry sees the same array.
 */
export function reconcileSlots(prev: Slots | null, ids: readonly number[], columns: number, complete: boolean): Slots {
  if (!prev) return fresh(0, ids, columns, complete);
  const wanted = new Set(ids);
  const survivors: number[] = [];
  const leaving: number[] = [];
  for (const id of prev.ids) {
    if (prev.gone.has(id)) continue;
    if (wanted.has(id)) survivors.push(id);
    else leaving.push(id);
  }
  // The list must start with the surviving slots, in their order; the rest is new at the end.
  const prefixKept = survivors.every((id, i) => ids[i] === id);
  const extra = ids.slice(survivors.length);
  const placed = new Set(prev.ids);
  if (!prefixKept || extra.some((id) => placed.has(id))) return fresh(prev.generation + 1, ids, columns, complete);

  const room = wholeRows(prev.ids.length + extra.length, columns, complete) - prev.ids.length;
  const appended = room > 0 ? extra.slice(0, room) : [];
  if (!leaving.length && !appended.length) return prev;
  let gone = prev.gone;
  if (leaving.length) {
    const next = new Set(prev.gone);
    for (const id of leaving) next.add(id);
    gone = next;
  }
  return { generation: prev.generation, ids: appended.length ? [...prev.ids, ...appended] : prev.ids, gone };
}
