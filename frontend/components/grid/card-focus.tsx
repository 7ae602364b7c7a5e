// One Tab stop for a whole grid (a "roving tabindex"): only the grid's active card has its links
// and buttons in the Tab order; the arrow keys move between cards (./card-keys.ts). Without it a
// grid was 3–5 Tab stops a card, so 40 Tabs never got past the first screen of cards to what
// follows them (a toast's Undo). The active card is the one last focused while it is mounted, else
// the first card in view, so Tab from the navigation bar lands where the reader is looking.
import { createContext, useContext, useSyncExternalStore, type ButtonHTMLAttributes } from 'react';

/** Which card of one grid is active; each card listens for its own id only. */
export class CardFocus {
  private active: number | null = null;
  private readonly listeners = new Map<number, Set<() => void>>();

  current(): number | null {
    return this.active;
  }

  set(id: number | null): void {
    if (id === this.active) return;
    const previous = this.active;
    this.active = id;
    for (const changed of [previous, id]) if (changed !== null) this.listeners.get(changed)?.forEach((listener) => listener());
  }

  subscribe(id: number, listener: () => void): () => void {
    let set = this.listeners.get(id);
    if (!set) this.listeners.set(id, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(id);
    };
  }
}

interface Scope {
  focus: CardFocus;
  /** The id of the grid's "arrow keys move between pins" hint. */
  hintId: string;
}

const ScopeContext = createContext<Scope | null>(null);
const CardIdContext = createContext<number | null>(null);

/** Given by a grid to everything inside it. */
export const CardFocusScope = ScopeContext.Provider;
/** Given by a grid cell to its card: which id the card is. */
export const CardIdScope = CardIdContext.Provider;

const noSubscription = () => () => undefined;

function useIsActiveCard(): boolean | null {
  const scope = useContext(ScopeContext);
  const id = useContext(CardIdContext);
  const active = useSyncExternalStore(scope && id !== null ? (listener) => scope.focus.subscribe(id, listener) : noSubscription, () => (scope && id !== null ? scope.focus.current() === id : true));
  return scope && id !== null ? active : null;
}

/**
 * The `tabIndex` for each link and button of a grid card: in the Tab order in the grid's active
 * card, out of it (still clickable and focusable by the arrow keys) in the others. Undefined
 * outside a grid, which leaves the element's own behaviour.
 */
export function useCardTabIndex(): number | undefined {
  const active = useIsActiveCard();
  return active === null ? undefined : active ? 0 : -1;
}

/**
 * Props of a card's main link (its title): where the arrow keys put the focus, and, on the active
 * card, the hint that says they can.
 */
export function useCardLinkProps(): { tabIndex?: number; 'aria-describedby'?: string; 'data-card-link': true } {
  const scope = useContext(ScopeContext);
  const active = useIsActiveCard();
  if (active === null || !scope) return { 'data-card-link': true };
  return { tabIndex: active ? 0 : -1, ...(active ? { 'aria-describedby': scope.hintId } : {}), 'data-card-link': true };
}

/** A button of a grid card, in the Tab order only on the grid's active card (see useCardTabIndex). */
export function CardButton(props: Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'tabIndex'>) {
  return <button type="button" {...props} tabIndex={useCardTabIndex()} />;
}
