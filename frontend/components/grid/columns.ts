// Column count and gutters of the pin grids, from the width of the grid itself (the page's width
// less its padding): 2 columns on a phone up to 6 on a wide screen, about 236 px each at 1280.

export interface GridColumns {
  count: number;
  /** Space between columns, and between cards in a column (px). */
  gutter: number;
}

export function gridColumns(width: number): GridColumns {
  if (width < 568) return { count: 2, gutter: 12 };
  if (width < 868) return { count: 3, gutter: 16 };
  if (width < 1148) return { count: 4, gutter: 16 };
  if (width < 1468) return { count: 5, gutter: 16 };
  return { count: 6, gutter: 16 };
}

/** A card's width in a grid of `width` px (as masonic computes it). */
export function columnWidth(width: number, { count, gutter }: GridColumns): number {
  return Math.floor((width - gutter * (count - 1)) / count);
}
