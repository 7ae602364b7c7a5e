// The pin grids (docs/grid.md): a virtualized masonry laid out by masonic's positioner. Only the
// cards within about two screens of the viewport are mounted, in reading order (./visible-cells.ts),
// so 10,000 scrolled pins cost what a hundred do and the keyboard goes through them as a reader
// does; the grid is one Tab stop with the arrow keys inside (./card-focus.tsx); the next page is
// fetched while the reader is still a couple of screens away from the end; and the layout is kept
// when the page goes away, so Back returns to the same card at the same place (./grid-memory.ts).
import { usePositioner, useScroller, type Positioner } from 'masonic';
import {
  createContext,
  memo,
  useContext,
  useEffect,
  useEffectEvent,
  useId,
  useLayoutEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
  type CSSProperties,
  type ReactNode,
  type RefObject,
  type SyntheticEvent,
} from 'react';
import type { ListStatus } from '../../state/lists.ts';
import { DEFAULT_ASPECT } from './aspect.ts';
import { CardFocus, CardFocusScope, CardIdScope } from './card-focus.tsx';
import { useCardKeys } from './use-card-keys.ts';
import { columnWidth as widthOfColumn, gridColumns } from './columns.ts';
import { gapIndexes, settleGaps } from './gaps.ts';
import { type GridBox, useGridMemory, useSavedGrid } from './grid-memory.ts';
import { createCellResizeObserver } from './resize-observer.ts';
import { reconcileSlots, type Slots } from './slots.ts';
import { visibleCells } from './visible-cells.ts';

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
  /** Text under the grid once its last page is shown (the feed does not just stop). */
  endText?: string;
}

/** The grid's width and place, measured before the first paint and after every resize. */
function useBox(ref: RefObject<HTMLElement | null>): GridBox | null {
  const [box, setBox] = useState<GridBox | null>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const covered = Math.round(document.querySelector('header.nav')?.getBoundingClientRect().height ?? 0);
      const next = { width: element.clientWidth, offset: Math.round(element.getBoundingClientRect().top + window.scrollY), viewport: window.innerHeight, covered };
      if (next.width <= 0) return;
      setBox((prev) => (prev && prev.width === next.width && prev.offset === next.offset && prev.viewport === next.viewport && prev.covered === next.covered ? prev : next));
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

/**
 * How far down the grid (in its own coordinates) the sticky bar hides it. Only a grid scrolled up
 * under the bar is covered: at the top of the page the grid starts below the bar and its first row
 * is in view (subtracting the bar's height there put the Tab stop on the second row).
 */
function hiddenUnderBar(scrollTop: number, box: GridBox): number {
  // `scrollTop` is 0 while the grid's top is still below the viewport's top: read the page's own.
  const scrollY = scrollTop > 0 ? scrollTop + box.offset : window.scrollY;
  return Math.max(0, scrollY + box.covered - box.offset);
}

export const GRID_HINT = 'Use the arrow keys to move between pins.';
export const GRID_END = "You've seen all the pins here.";

export function MasonryGrid(props: MasonryGridProps) {
  const ref = useRef<HTMLElement>(null);
  const box = useBox(ref);
  const hintId = useId();
  return (
    <section className="masonry" aria-label={props.label} ref={ref}>
      <span id={hintId} hidden>
        {GRID_HINT}
      </span>
      {box ? <Layout key={props.restoreKey} {...props} box={box} hintId={hintId} /> : null}
      <GridFooter {...props} />
    </section>
  );
}

function GridFooter({ hasMore, status, loadMore, ids, loadingText = 'Loading more pins...', endText = GRID_END }: MasonryGridProps) {
  if (status === 'error')
    return (
      <div className="masonry__footer">
        <button type="button" className="button button--secondary" onClick={loadMore}>
          Try again
        </button>
      </div>
    );
  const text = hasMore ? (status === 'loading' ? loadingText : '') : ids.length > 0 ? endText : '';
  return (
    // One box for every text: the footer changing what it says moves nothing.
    <p className="masonry__footer" role="status">
      {text}
    </p>
  );
}

interface CellContext {
  renderCard: (id: number) => ReactNode;
  /** The width of a card (a column), in CSS pixels. */
  cardWidth: number | null;
}
const Cells = createContext<CellContext>({ renderCard: () => null, cardWidth: null });

/**
 * The width of the grid's cards in CSS pixels (null outside a grid): a card's image tells the
 * browser through `sizes`, so it fetches the thumbnail that fits the column.
 */
export function useCardWidth(): number | null {
  return useContext(Cells).cardWidth;
}

/**
 * A cell's content: the card, or for an id that left the list (./gaps.ts) an empty box of the
 * card's height while the gap is held open, nothing once it is closed.
 */
const CellBody = memo(function CellBody({ id, gap }: { id: number; gap: number | null }) {
  const { renderCard } = useContext(Cells);
  if (gap !== null)
    return gap > 0 ? (
      <div className="masonry__gap" style={{ height: gap }} aria-hidden="true">
        Removed
      </div>
    ) : null;
  return <CardIdScope value={id}>{renderCard(id)}</CardIdScope>;
});

/** Screens rendered below the viewport (and half that above). */
const OVERSCAN = 2;
const seeded = new WeakSet<Positioner>();
const HIDDEN: CSSProperties = { position: 'absolute', visibility: 'hidden', zIndex: -1000, writingMode: 'horizontal-tb' };

/** The card last focused or clicked: Back gives it the focus again (./grid-memory.ts). */
function useTouchedCard(slots: Slots) {
  const touched = useRef<number | null>(null);
  const touch = (event: SyntheticEvent) => {
    const cell = (event.target as HTMLElement).closest<HTMLElement>('[data-slot]');
    const id = cell ? slots.ids[Number(cell.dataset.slot)] : undefined;
    if (id !== undefined) touched.current = id;
  };
  return { touched, touch };
}

/**
 * Cells are measured hidden, in batches sized by the height estimate; when they come out shorter
 * than estimated, the overscan is still not full: render again whenever this commit measured cells.
 */
function useMeasuringAgain(positioner: Positioner, needsFreshBatch: boolean, rerender: () => void): void {
  const measuredBefore = positioner.size();
  useEffect(() => {
    if (positioner.size() > measuredBefore || needsFreshBatch) rerender();
  });
}

/** Gaps left by removed pins: closed at once in view and below it, held open above it. */
function useGapSettling(slots: Slots, positioner: Positioner, box: GridBox, gutter: number, restoring: () => boolean, rerender: () => void): void {
  const gaps = useMemo(() => gapIndexes(slots), [slots]);
  const held = useRef(new Set<number>());
  useLayoutEffect(() => {
    if (!gaps.length || restoring()) return;
    const view = { top: Math.max(0, window.scrollY - box.offset), bottom: window.scrollY - box.offset + box.viewport };
    if (settleGaps(positioner, slots, gaps, held.current, view, gutter)) rerender();
  });
}

function Layout({ ids, renderCard, hasMore, status, loadMore, restoreKey, box, hintId }: MasonryGridProps & { box: GridBox; hintId: string }) {
  const columns = gridColumns(box.width);
  const width = widthOfColumn(box.width, columns);
  const saved = useSavedGrid(restoreKey);
  const [slots, setSlots] = useState<Slots>(() => reconcileSlots(saved?.slots ?? null, ids, columns.count, !hasMore));
  // Not again on every scroll frame: only when the list, the columns or the paging changed.
  const next = useMemo(() => reconcileSlots(slots, ids, columns.count, !hasMore), [slots, ids, columns.count, hasMore]);
  if (next !== slots) setSlots(next); // derived state, settled before anything is committed

  const positioner = usePositioner({ width: box.width, columnCount: columns.count, columnGutter: columns.gutter, rowGutter: columns.gutter }, [slots.generation]);
  // Back with the same columns: the heights measured last time give the very same layout at once.
  if (saved && !seeded.has(positioner) && positioner.size() === 0 && saved.slots.generation === slots.generation) {
    seeded.add(positioner);
    if (saved.columns === columns.count && saved.columnWidth === positioner.columnWidth) saved.heights.forEach((height, index) => positioner.set(index, height));
  }
  const { scrollTop, isScrolling } = useScroller(box.offset);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const resizeObserver = useMemo(() => createCellResizeObserver(positioner, rerender), [positioner]);
  useEffect(() => () => resizeObserver.disconnect(), [resizeObserver]);
  const usable = (index: number) => !slots.gone.has(slots.ids[index] ?? -1);
  const keys = useCardKeys({ positioner, slots, usable, offset: box.offset, viewport: box.viewport });
  const { touched, touch } = useTouchedCard(slots);
  const restoring = useGridMemory(restoreKey, saved, { slots, positioner, box, columns, touched, container: keys.containerRef });

  useGapSettling(slots, positioner, box, columns.gutter, restoring, rerender);

  const view = visibleCells(positioner, {
    itemCount: slots.ids.length,
    scrollTop,
    height: box.viewport,
    overscanBy: OVERSCAN,
    itemHeightEstimate: Math.round(width / DEFAULT_ASPECT + 56), // the image box and about two lines of text
  });
  useMeasuringAgain(positioner, view.needsFreshBatch, rerender);

  // Fetch ahead: two screens are rendered below the viewport; near the end of those, load more.
  const fetchAhead = useEffectEvent(() => {
    if (hasMore && status !== 'loading' && status !== 'error' && view.stop + columns.count * 3 >= slots.ids.length) loadMore();
  });
  useEffect(() => fetchAhead(), [ids, hasMore, status, view.stop]);

  // One Tab stop: the card last focused while it is mounted, else the first card in view.
  const [focus] = useState(() => new CardFocus());
  const seen = hiddenUnderBar(scrollTop, box);
  const firstInView =
    view.placed.find((cell) => usable(cell.index) && cell.top >= seen) ?? view.placed.find((cell) => usable(cell.index) && cell.top + (positioner.get(cell.index)?.height ?? 0) > seen);
  const active = keys.focused !== null && view.placed.some((cell) => slots.ids[cell.index] === keys.focused) ? keys.focused : (slots.ids[firstInView?.index ?? -1] ?? null);
  useLayoutEffect(() => focus.set(active));

  const cardWidth = positioner.columnWidth;
  const cells = useMemo(() => ({ renderCard, cardWidth }), [renderCard, cardWidth]);
  const scope = useMemo(() => ({ focus, hintId }), [focus, hintId]);
  const cellRef = useCellRefs(positioner, resizeObserver);
  const cell = (index: number, style: CSSProperties) => {
    const id = slots.ids[index] as number;
    const gap = slots.gone.has(id) ? Math.max(0, positioner.get(index)?.height ?? 0) : null;
    return (
      <div key={id} role="listitem" data-slot={index} ref={cellRef(index)} style={style}>
        <CellBody id={id} gap={gap} />
      </div>
    );
  };
  const height = Math.ceil(positioner.estimateHeight(slots.ids.length, Math.round(width / DEFAULT_ASPECT + 56)));
  return (
    <CardFocusScope value={scope}>
      <Cells.Provider value={cells}>
        <div
          role="list"
          className="masonry__items"
          style={{ position: 'relative', width: '100%', height, maxHeight: height, willChange: isScrolling ? 'contents' : undefined }}
          onKeyDown={keys.onKeyDown}
          onFocus={(event) => {
            keys.onFocus(event);
            touch(event);
          }}
          onClickCapture={touch}
          ref={keys.containerRef}
        >
          {/* One array: a cell keeps its element (and its card) when it goes from measured to placed. */}
          {[
            ...view.placed.map(({ index, top, left }) => cell(index, { position: 'absolute', top, left, width: cardWidth, writingMode: 'horizontal-tb' })),
            ...view.measuring.map((index) => cell(index, { ...HIDDEN, width: cardWidth })),
          ]}
        </div>
      </Cells.Provider>
    </CardFocusScope>
  );
}

/**
 * One ref callback per slot, kept while the positioner lives: a cell is observed for resizes once,
 * and measured when it first mounts (not on every render, as a fresh callback would be).
 */
function useCellRefs(positioner: Positioner, observer: ResizeObserver): (index: number) => (element: HTMLElement | null) => void {
  return useMemo(() => {
    const refs = new Map<number, (element: HTMLElement | null) => void>();
    return (index: number) => {
      let ref = refs.get(index);
      if (!ref) {
        ref = (element) => {
          if (!element) return;
          observer.observe(element);
          if (positioner.get(index) === undefined) positioner.set(index, element.offsetHeight);
        };
        refs.set(index, ref);
      }
      return ref;
    };
  }, [positioner, observer]);
}
