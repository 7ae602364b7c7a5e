// The pin grids (DESIGN §9): a virtualized masonry on `masonic`. Only the cards within about two
// screens of the viewport are mounted, so 10,000 scrolled pins cost what a hundred do; the next
// page is fetched while the reader is still a couple of screens away from the end; and the layout
// is kept when the page goes away, so Back returns to the same card at the same place.
import { useStore } from 'jotai';
import { useMasonry, usePositioner, useScroller, type Positioner, type RenderComponentProps } from 'masonic';
import { createContext, useContext, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState, type ReactNode, type RefObject } from 'react';
import type { ListStatus } from '../../state/lists.ts';
import { DEFAULT_ASPECT } from './aspect.ts';
import { columnWidth as widthOfColumn, gridColumns } from './columns.ts';
import { readGridSnapshot, saveGridSnapshot, type GridSnapshot } from './snapshots.ts';
import { createCellResizeObserver } from './resize-observer.ts';
import { reconcileSlots, type Slots } from './slots.ts';

export interface MasonryGridProps {
  /** The grid's accessible name. */
  label: string;
  /** The ids to show, in order (entities that exist). */
  ids: readonly number[];
  /** One card; keep it stable (useCallback): every mounted card renders again when it changes. */
  renderCard: (id: number) => ReactNode;
  hasMore: boolean;
  status: ListStatus;
  loadMore: () => void;
  /** Names this grid in this history entry: its layout is kept under it for Back. */
  restoreKey: string;
  /** Text under the grid while the next page loads. */
  loadingText?: string;
}

interface Box {
  width: number;
  /** Distance from the document's top to the grid's top. */
  offset: number;
  /** The viewport's height. */
  viewport: number;
}

/** The grid's width and place, measured before the first paint and after every resize. */
function useBox(ref: RefObject<HTMLElement | null>): Box | null {
  const [box, setBox] = useState<Box | null>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const next = { width: element.clientWidth, offset: Math.round(element.getBoundingClientRect().top + window.scrollY), viewport: window.innerHeight };
      if (next.width <= 0) return;
      setBox((prev) => (prev && prev.width === next.width && prev.offset === next.offset && prev.viewport === next.viewport ? prev : next));
    };
    measure();
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : null;
    observer?.observe(element);
    // Content above the grid may grow after it is laid out (a pin's picture and comments above
    // "More like this"): the page grows with it, and the grid's offset is measured again.
    observer?.observe(document.body);
    window.addEventListener('resize', measure);
    return () => {
      observer?.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, [ref]);
  return box;
}

export function MasonryGrid(props: MasonryGridProps) {
  const ref = useRef<HTMLElement>(null);
  const box = useBox(ref);
  return (
    <section className="masonry" aria-label={props.label} ref={ref}>
      {box ? <Layout key={props.restoreKey} {...props} box={box} /> : null}
      <GridFooter {...props} />
    </section>
  );
}

function GridFooter({ hasMore, status, loadMore, loadingText = 'Loading more pins...' }: MasonryGridProps) {
  if (status === 'error')
    return (
      <div className="masonry__footer">
        <button type="button" className="button button--secondary" onClick={loadMore}>
          Try again
        </button>
      </div>
    );
  return (
    <p className="masonry__footer" role="status">
      {hasMore && status === 'loading' ? loadingText : ''}
    </p>
  );
}

/** A masonry item: masonic memoizes cells by item object, so each id keeps one object. */
interface Item {
  id: number;
}

interface CellContext {
  renderCard: (id: number) => ReactNode;
  gone: ReadonlySet<number>;
  /** The width of a card (a column), in CSS pixels. */
  cardWidth: number | null;
}
const Cells = createContext<CellContext>({ renderCard: () => null, gone: new Set(), cardWidth: null });

/**
 * The width of the grid's cards in CSS pixels (null outside a grid): a card's image tells the
 * browser through `sizes`, so it fetches the thumbnail that fits the column (DESIGN §10).
 */
export function useCardWidth(): number | null {
  return useContext(Cells).cardWidth;
}

/** One masonry cell: the card, or nothing for an id that left the list (a collapsed gap). */
function Cell({ data: { id }, index }: RenderComponentProps<Item>) {
  const { renderCard, gone } = useContext(Cells);
  // data-slot tells the resize observer which cell this is.
  return gone.has(id) ? null : <div data-slot={index}>{renderCard(id)}</div>;
}

/** The slot indexes of the ids that left the list. */
function gapIndexes(slots: Slots): number[] {
  const out: number[] = [];
  if (slots.gone.size) slots.ids.forEach((id, index) => slots.gone.has(id) && out.push(index));
  return out;
}

/** Slots that left the list get a height of minus one gutter, so their column closes up exactly. */
function collapseGaps(positioner: Positioner, gaps: readonly number[], gutter: number): boolean {
  const updates: number[] = [];
  for (const index of gaps) {
    const position = positioner.get(index);
    if (position && position.height !== -gutter) updates.push(index, -gutter);
  }
  if (updates.length) positioner.update(updates);
  return updates.length > 0;
}

/** The card at the viewport's centre (nearest the middle column), from the layout alone. */
function anchorAt(positioner: Positioner, slots: Slots, box: Box, scrollY: number): GridSnapshot['anchor'] {
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

const seeded = new WeakSet<Positioner>();
/** How long a restored place is kept while the page above the grid settles. */
const HOLD_MS = 3000;
/** Input that means the reader is moving the page. */
const READER_SCROLLS = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;
/** Screens rendered below the viewport (and half that above). */
const OVERSCAN = 2;

function Layout({ ids, renderCard, hasMore, status, loadMore, restoreKey, box }: MasonryGridProps & { box: Box }) {
  const store = useStore();
  const columns = gridColumns(box.width);
  const width = widthOfColumn(box.width, columns);
  const [saved] = useState(() => readGridSnapshot(store, restoreKey));
  const [slots, setSlots] = useState<Slots>(() => reconcileSlots(saved?.slots ?? null, ids, columns.count, !hasMore));
  // Not again on every scroll frame: only when the list, the columns or the paging changed.
  const next = useMemo(() => reconcileSlots(slots, ids, columns.count, !hasMore), [slots, ids, columns.count, hasMore]);
  if (next !== slots) setSlots(next); // derived state, settled before anything is committed

  const positioner = usePositioner(
    { width: box.width, columnCount: columns.count, columnGutter: columns.gutter, rowGutter: columns.gutter },
    [slots.generation],
  );
  // Back with the same columns: the heights measured last time give the very same layout at once.
  if (saved && !seeded.has(positioner) && positioner.size() === 0 && saved.slots.generation === slots.generation) {
    seeded.add(positioner);
    if (saved.columns === columns.count && saved.columnWidth === positioner.columnWidth) saved.heights.forEach((height, index) => positioner.set(index, height));
  }
  const { scrollTop, isScrolling } = useScroller(box.offset);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const resizeObserver = useMemo(() => createCellResizeObserver(positioner, rerender), [positioner]);
  useEffect(() => () => resizeObserver.disconnect(), [resizeObserver]);
  const gaps = useMemo(() => gapIndexes(slots), [slots]);
  useLayoutEffect(() => {
    if (gaps.length && collapseGaps(positioner, gaps, columns.gutter)) rerender();
  });
  // masonic measures new cards hidden, in batches sized by its height estimate, and shows them
  // (and measures the next batch) only when its "needs more" flag flips. When cards come out
  // shorter than estimated the flag stays up, and the batch just measured would stay hidden until
  // a scroll. So: render again whenever this commit measured cards.
  const measuredBefore = positioner.size();
  useEffect(() => {
    if (positioner.size() > measuredBefore) rerender();
  });

  // Fetch ahead: masonic renders two screens below the viewport; near the end of those, load more.
  const lastRendered = useRef(-1);
  const latest = useRef({ hasMore, status, loadMore, count: slots.ids.length, columns: columns.count });
  latest.current = { hasMore, status, loadMore, count: slots.ids.length, columns: columns.count };
  const maybeLoad = useMemo(
    () => () => {
      const { hasMore: more, status: now, loadMore: load, count, columns: n } = latest.current;
      if (more && now !== 'loading' && now !== 'error' && lastRendered.current + n * 3 >= count) load();
    },
    [],
  );
  useEffect(maybeLoad, [maybeLoad, ids, hasMore, status]);

  // Back: put the card that was at the centre back there (or the same scroll position).
  const restore = useRef(saved ? { anchor: saved.anchor, scrollY: saved.scrollY, tries: 0 } : null);
  // Then keep it there while the page above the grid settles (a pin's picture still loading above
  // "More like this" moves the grid once it has its size), until the reader scrolls.
  const held = useRef<{ anchor: NonNullable<GridSnapshot['anchor']>; y: number; until: number } | null>(null);
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
      // Not measured yet: scrolling near it makes masonic measure up to it.
      if (pending.tries === 0) window.scrollTo(0, pending.scrollY);
      pending.tries += 1;
    }
  });

  // Keep the layout for Back when the grid goes away.
  const current = useRef({ slots, positioner, box, scrollTop, columns, width });
  current.current = { slots, positioner, box, scrollTop, columns, width };
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

  const cardWidth = positioner.columnWidth;
  const cells = useMemo(() => ({ renderCard, gone: slots.gone, cardWidth }), [renderCard, slots.gone, cardWidth]);
  const itemCache = useRef(new Map<number, Item>());
  const items = useMemo(() => {
    const cache = itemCache.current;
    return slots.ids.map((id) => {
      let item = cache.get(id);
      if (!item) cache.set(id, (item = { id }));
      return item;
    });
  }, [slots.ids]);
  const grid = useMasonry<Item>({
    positioner,
    resizeObserver,
    items,
    scrollTop,
    isScrolling,
    height: box.viewport,
    render: Cell,
    itemKey: (item) => item.id,
    // A card is its image box plus about two lines of text.
    itemHeightEstimate: Math.round(width / DEFAULT_ASPECT + 56),
    overscanBy: OVERSCAN,
    role: 'list',
    tabIndex: -1,
    className: 'masonry__items',
    onRender: (_start, stop) => {
      lastRendered.current = stop;
      maybeLoad();
    },
  });
  return <Cells.Provider value={cells}>{grid}</Cells.Provider>;
}
