// Column count and gutters of the pin grids, from the width of the grid itself (the page's width
// less its padding): as many columns as it takes to keep each at most 236 px wide — the small
// thumbnail's width (docs/images.md), so a card on a 1× screen loads the 236 px file and never the
// 736 px one — and at least 2 on a phone. At 1280 px that is 5 columns of 236 px.

/** The widest a column gets: the width of the small thumbnail. */
export const MAX_COLUMN_WIDTH = 236;

export interface GridColumns {
  count: number;
  /** Space between columns, and between cards in a column (px). */
  gutter: number;
}

export function gridColumns(width: number): GridColumns {
  const gutter = width < 568 ? 12 : 16;
  return { count: Math.max(2, Math.ceil((width + gutter) / (MAX_COLUMN_WIDTH + gutter))), gutter };
}

/** A card's width in a grid of `width` px (as masonic computes it). */
export function columnWidth(width: number, { count, gutter }: GridColumns): number {
  return Math.floor((width - gutter * (count - 1)) / count);
}
