import { atom } from 'jotai';

/**
 * The live connection as the screens see it:
 * - `idle`: not started (before the session check, or no live client at all, as in component tests);
 * - `connecting`: opening the first socket, or a new one after login/logout;
 * - `connected`: events are arriving;
 * - `paused`: the connection dropped after having worked; the socket is reconnecting.
 */
export type LiveStatus = 'idle' | 'connecting' | 'connected' | 'paused';
export const liveStatusAtom = atom<LiveStatus>('idle');

/**
 * Pins this tab learned were deleted (a `pin:deleted` event, or gone from a resync). Pin ids are
 * never reused, so the detail page can tell "deleted while you looked" from "never existed", and
 * a late `pin:created`/`pin:updated` cannot bring a deleted pin back.
 */
export const deletedPinIdsAtom = atom<ReadonlySet<number>>(new Set<number>());
