// Favorites and boards refer to their pins by id; what a card shows of a pin (its title, image and
// like count) has one owner, the pin's entry (./atoms.ts: the pin itself, or its summary while
// only a favorite or a board told of it). The screens read these joins, in the shapes the server
// sends (Favorite, Board, BoardPin). Each joined entry stays the same object while what it is made
// of is unchanged, and so does each whole map, so a screen re-renders only for what changed.
import type { Board, BoardPin, Favorite } from '../../contract/index.ts';
import type { ById } from './atoms.ts';

/** What a card shows of a pin: the pin itself, or its summary. */
export type PinFacts = BoardPin & { likes_count?: number };

/** A favorite as the store keeps it: which pin. */
export type FavoriteRef = Pick<Favorite, 'id' | 'pin_id'>;
/** A favorite as screens show it: its pin's facts (the count's version stays with the count, ./pins.ts). */
export type FavoriteView = Omit<Favorite, 'likes_version'>;

/** A board as the store keeps it: its covers (the ≤4 most recently added pins) by pin id. */
export type BoardRecord = Omit<Board, 'pins'> & { readonly coverIds: readonly number[] };

/** Where a pin's facts are looked up: the pins known in full, then the summaries. */
export interface PinFactsSource {
  pins: ById<PinFacts>;
  summaries: ById<PinFacts>;
}

function factsOf(source: PinFactsSource, pinId: number): PinFacts | undefined {
  return source.pins[pinId] ?? source.summaries[pinId];
}

function asBoardPin(facts: PinFacts): BoardPin {
  return { id: facts.id, title: facts.title, image_url: facts.image_url, image: facts.image };
}

function sameParts(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((part, i) => part === b[i]);
}

type EntryCache = WeakMap<object, { parts: readonly unknown[]; view: unknown }>;

/**
 * A by-id join: `build` makes the entry of each record from `parts` (the objects it is made of),
 * again only when one of them changed; an entry without its facts is left out. `entries` is the
 * join's cache by record (a record keeps its object while it is unchanged); `key`, the owner's
 * map, keeps the last whole map, returned again when every entry is the same.
 */
function join<R extends object, V>(entries: EntryCache, records: Iterable<[number, R]>, key: object, parts: (record: R) => readonly unknown[], build: (record: R) => V | undefined): ById<V> {
  const out: ById<V> = {};
  let count = 0;
  for (const [id, record] of records) {
    const madeOf = parts(record);
    let cached = entries.get(record);
    if (!cached || !sameParts(cached.parts, madeOf)) entries.set(record, (cached = { parts: madeOf, view: build(record) }));
    if (cached.view !== undefined) {
      out[id] = cached.view as V;
      count += 1;
    }
  }
  const last = lastMaps.get(key) as ById<V> | undefined;
  if (last && Object.keys(last).length === count && Object.entries(out).every(([id, view]) => last[Number(id)] === view)) return last;
  lastMaps.set(key, out);
  return out;
}
const lastMaps = new WeakMap<object, object>();
const favoriteEntries: EntryCache = new WeakMap();
const boardEntries: EntryCache = new WeakMap();
const boardPinEntries: EntryCache = new WeakMap();

const byIdEntries = <R>(byId: ById<R>): Iterable<[number, R]> => Object.entries(byId).map(([id, record]) => [Number(id), record]);

export function joinFavorites(refs: ById<FavoriteRef>, source: PinFactsSource): ById<FavoriteView> {
  return join(
    favoriteEntries,
    byIdEntries(refs),
    refs,
    (ref) => [factsOf(source, ref.pin_id)],
    (ref) => {
      const facts = factsOf(source, ref.pin_id);
      return facts && { id: ref.id, pin_id: ref.pin_id, title: facts.title, image_url: facts.image_url, image: facts.image, likes_count: facts.likes_count ?? 0 };
    },
  );
}

export function joinBoards(records: ById<BoardRecord>, source: PinFactsSource): ById<Board> {
  return join(
    boardEntries,
    byIdEntries(records),
    records,
    (record) => record.coverIds.map((id) => factsOf(source, id)),
    ({ coverIds, ...board }) => {
      const pins = coverIds.flatMap((id) => {
        const facts = factsOf(source, id);
        return facts ? [asBoardPin(facts)] : [];
      });
      return { ...board, pins };
    },
  );
}

/** The pins of boards' loaded pages, by pin id. */
export function joinBoardPins(pinIds: ReadonlySet<number>, source: PinFactsSource): ById<BoardPin> {
  // Keyed by each pin's facts: the same facts make the same entry.
  return join(
    boardPinEntries,
    [...pinIds].flatMap((id): Array<[number, PinFacts]> => {
      const facts = factsOf(source, id);
      return facts ? [[id, facts]] : [];
    }),
    pinIds,
    (facts) => [facts],
    asBoardPin,
  );
}
