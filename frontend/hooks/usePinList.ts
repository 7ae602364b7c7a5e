import type { Pin, PinList } from '../../contract/index.ts';
import { visiblePinsByIdAtom } from '../state/hidden.ts';
import { upsertPins } from '../state/pins.ts';
import { type PagedListOptions, type PagedListView, usePagedList } from './usePagedList.ts';

/**
 * A screen's paged list of pins (home, profiles, search, a tag, "More like this"): pages of
 * `{pins, nextCursor}` kept in the store's pins; pins that are gone or hidden (a delete waiting
 * for its Undo) are left out.
 */
export function usePinList(key: string | null, fetchPins: (cursor: string | null) => Promise<PinList>, options: Pick<PagedListOptions<Pin>, 'onShow' | 'onReconnect'> = {}): PagedListView {
  return usePagedList<Pin>({
    key,
    fetchPage: async (cursor) => {
      const page = await fetchPins(cursor);
      return { items: page.pins, nextCursor: page.nextCursor };
    },
    keep: upsertPins,
    idOf: (pin) => pin.id,
    entities: visiblePinsByIdAtom,
    ...options,
  });
}
