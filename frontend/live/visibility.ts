// Grid cards watch their pin only while on (or near) the screen: one shared IntersectionObserver
// per live client. Without IntersectionObserver a card watches while it is mounted.

interface VisibilityWatcher {
  /** Starts following `element` for `pinId`; the returned function stops (and unwatches). */
  observe(element: Element, pinId: number): () => void;
}

/** "Near" the screen: a card this close below (or above) the viewport counts as shown. */
const ROOT_MARGIN = '200px 0px';

export function createVisibilityWatcher(watch: (pinId: number) => void, unwatch: (pinId: number) => void): VisibilityWatcher {
  const Observer = globalThis.IntersectionObserver as typeof IntersectionObserver | undefined;
  if (typeof Observer !== 'function') {
    return {
      observe(_element, pinId) {
        watch(pinId);
        return () => unwatch(pinId);
      },
    };
  }
  const entries = new Map<Element, { pinId: number; watching: boolean }>();
  let observer: IntersectionObserver | undefined;
  const onChange = (changes: IntersectionObserverEntry[]) => {
    for (const change of changes) {
      const entry = entries.get(change.target);
      if (!entry) continue;
      if (change.isIntersecting && !entry.watching) {
        entry.watching = true;
        watch(entry.pinId);
      } else if (!change.isIntersecting && entry.watching) {
        entry.watching = false;
        unwatch(entry.pinId);
      }
    }
  };
  return {
    observe(element, pinId) {
      observer ??= new Observer(onChange, { rootMargin: ROOT_MARGIN });
      const entry = { pinId, watching: false };
      entries.set(element, entry);
      observer.observe(element);
      return () => {
        observer?.unobserve(element);
        if (entries.get(element) === entry) entries.delete(element);
        if (entry.watching) unwatch(pinId);
      };
    },
  };
}
