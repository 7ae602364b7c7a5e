import type { Pin } from '../../contract/index.ts';
import { pinsByIdAtom, pinSummariesByIdAtom } from './atoms.ts';
import { without } from './byId.ts';
import type { PinFacts } from './pin-views.ts';
import type { Store } from './store.ts';

// A pin's facts (what its cards show: title, image, like count) have one owner: the pin itself
// once it is known in full, its summary before that (./atoms.ts). Favorites and boards refer to
// pins by id (./pin-views.ts), so nothing else is to be kept in step.

type ImageFacts = Pick<PinFacts, 'image_url' | 'image'>;

/** A stored image is named by its thumbnails' addresses (content-addressed), so they tell it apart. */
function sameImage(a: ImageFacts, b: ImageFacts): boolean {
  return a.image_url === b.image_url && a.image?.thumbnails['236'] === b.image?.thumbnails['236'];
}

/** The pin known in full now holds its facts: its summary, if any, goes. */
export function dropSummaries(store: Store, pinIds: readonly number[]): void {
  store.set(pinSummariesByIdAtom, (prev) => (pinIds.some((id) => id in prev) ? pinIds.reduce(without, prev) : prev));
}

/** `facts` over `current`, or `current` itself when they tell nothing new. A fact left out (undefined) stays. */
function withFacts<T extends PinFacts>(current: T, facts: PinFacts): T {
  const likes = facts.likes_count ?? current.likes_count;
  const image = facts.image === undefined ? current.image : facts.image;
  if (current.title === facts.title && sameImage(current, { image_url: facts.image_url, image }) && current.likes_count === likes) return current;
  return { ...current, title: facts.title, image_url: facts.image_url, image, likes_count: likes };
}

/**
 * What a favorite or a board told of its pins (an answer or an event): kept by their owner — the
 * pin when it is known in full, else its summary. The latest answer wins, as for the pins' lists
 * (a screen's load replays the live events that arrived meanwhile: ./load-guard.ts).
 */
export function recordPinFacts(store: Store, facts: readonly PinFacts[]): void {
  if (!facts.length) return;
  const pins = store.get(pinsByIdAtom);
  const known = facts.filter((f) => pins[f.id] !== undefined);
  if (known.length) {
    store.set(pinsByIdAtom, (prev) => {
      let next = prev;
      for (const f of known) {
        const pin = next[f.id];
        const updated = pin && withFacts(pin, f);
        if (pin && updated !== pin) next = { ...next, [f.id]: updated as Pin };
      }
      return next;
    });
  }
  const summaries = facts.filter((f) => pins[f.id] === undefined);
  if (summaries.length) {
    store.set(pinSummariesByIdAtom, (prev) => {
      let next = prev;
      for (const f of summaries) {
        const current = next[f.id];
        const updated = current
          ? withFacts(current, f)
          : { id: f.id, title: f.title, image_url: f.image_url, image: f.image ?? null, ...(f.likes_count === undefined ? {} : { likes_count: f.likes_count }) };
        if (updated !== current) next = { ...next, [f.id]: updated };
      }
      return next;
    });
  }
}
