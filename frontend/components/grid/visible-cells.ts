import type { Positioner } from 'masonic';

// Which cells of the masonry to mount, in which order. masonic's own renderer (useMasonry) mounts
// the cells near the viewport in the order its interval tree yields them, which is neither the
// items' order nor the page's: the keyboard and screen readers then went through the grid row 3
// first and between columns 3 → 4 → 1 → 2 → 5. Here the same cells come out in reading order —
// row by row by their top edge, left to right within a row — which is also the DOM order the grid
// renders them in. The rest follows useMasonry: cells not measured yet are mounted hidden, in
// batches sized by the height estimate, so the positioner learns their heights.

/** A laid-out cell: its slot (index into the items) and place in the grid (px from its top left). */
export interface PlacedCell {
  index: number;
  top: number;
  left: number;
}

export interface VisibleCells {
  /** The cells within the overscan, in reading order. */
  placed: PlacedCell[];
  /** Slots to mount hidden so they can be measured (the next batch), in slot order. */
  measuring: number[];
  /** Lowest and highest slot among `placed` (-1 when none). */
  start: number;
  stop: number;
  /** More cells must be measured before the overscan is filled: render again after this commit. */
  needsFreshBatch: boolean;
}

export interface VisibleCellsOptions {
  itemCount: number;
  /** The viewport's top, in grid coordinates (0 while the grid's top is below it). */
  scrollTop: number;
  /** The viewport's height. */
  height: number;
  /** Viewports rendered below the viewport (half that above). */
  overscanBy: number;
  /** A card's height before it is measured. */
  itemHeightEstimate: number;
}

/** Top to bottom, then left to right: the order a reader (and a Tab key) goes through a row. */
export function byReadingOrder(a: PlacedCell, b: PlacedCell): number {
  return a.top - b.top || a.left - b.left || a.index - b.index;
}

export function visibleCells(positioner: Positioner, options: VisibleCellsOptions): VisibleCells {
  const { itemCount, scrollTop, height, overscanBy, itemHeightEstimate } = options;
  const overscan = height * overscanBy;
  const rangeEnd = scrollTop + overscan;
  const measured = positioner.size();
  const needsFreshBatch = positioner.shortestColumn() < rangeEnd && measured < itemCount;

  const placed: PlacedCell[] = [];
  let start = -1;
  let stop = -1;
  // Readers scroll down more than up: half the overscan above the viewport.
  positioner.range(Math.max(0, scrollTop - overscan / 2), rangeEnd, (index, left, top) => {
    if (index >= itemCount) return;
    placed.push({ index, top, left });
    start = start < 0 ? index : Math.min(start, index);
    stop = Math.max(stop, index);
  });
  placed.sort(byReadingOrder);

  const measuring: number[] = [];
  if (needsFreshBatch) {
    const batch = Math.min(itemCount - measured, Math.ceil(((rangeEnd - positioner.shortestColumn()) / itemHeightEstimate) * positioner.columnCount));
    for (let index = measured; index < measured + batch; index++) measuring.push(index);
  }
  return { placed, measuring, start, stop, needsFreshBatch };
}
