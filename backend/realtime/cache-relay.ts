import type { Change } from '../bus/bus-events.ts';
import type { EventBus } from '../bus/event-bus.ts';
import type { CachedSessionStore } from '../http/cached-session-store.ts';
import { cacheTags, type ReadCache } from '../http/read-cache.ts';
import type { IO } from './gateway.ts';

/** The read-cache tags that a committed change makes stale (none for the private ones: nothing cached shows them). */
function staleTags(change: Change): string[] {
  switch (change.event) {
    case 'pin:created':
      return [cacheTags.firstPages, cacheTags.pin(change.data.pin.id)];
    case 'pin:updated':
      return [cacheTags.pin(change.data.pin.id)];
    case 'pin:deleted':
      return [cacheTags.pin(change.data.pinId), cacheTags.comments(change.data.pinId)];
    case 'pin:likes':
      return [cacheTags.pin(change.data.pinId)];
    case 'comment:created':
    case 'comment:updated':
      return [cacheTags.comments(change.data.comment.pin_id)];
    case 'comment:deleted':
      return [cacheTags.comments(change.data.pinId)];
    default:
      return [];
  }
}

const MAX_TAGS = 100;

/**
 * How long an ended or changed session waits for the other instances to confirm they forgot it.
 * They answer in milliseconds; one that does not (hung, or Redis away) is covered by the session
 * cache's TTL, so the logout is not held up for long.
 */
export const SESSION_FORGET_WAIT_MS = 1_000;

/**
 * Keeps every instance's caches true: a change drops its read-cache tags here at once and on the
 * other instances through the adapter; a session changed or ended here is forgotten everywhere.
 * Subscribe it before the socket relay: the bus calls listeners in order, and the Redis adapter
 * publishes on one connection in order, so an instance receives the invalidation before the room
 * broadcast of the same change.
 */
export function startCacheRelay(
  io: IO,
  events: EventBus,
  caches: { reads: ReadCache; sessions: CachedSessionStore | undefined },
  /** Other instances share the adapter (Redis); the in-memory adapter has nobody to tell. */
  peers: boolean,
): () => void {
  const { reads, sessions } = caches;
  const tell: IO['serverSideEmit'] = peers ? (...args) => io.serverSideEmit(...args) : () => true;
  const stopInvalidating = events.on('change', (change) => {
    const tags = staleTags(change);
    if (!tags.length) return;
    reads.invalidate(tags);
    tell('cache:invalidate', tags);
  });
  // Messages come from other instances of this deployment; still, only well-formed ones are applied.
  const tagsFromPeer = (tags: unknown) => {
    if (Array.isArray(tags) && tags.length <= MAX_TAGS && tags.every((tag) => typeof tag === 'string')) {
      reads.invalidate(tags as string[]);
    }
  };
  const sessionFromPeer = (sessionId: unknown, forgotten: unknown) => {
    if (typeof sessionId === 'string') sessions?.forget(sessionId);
    if (typeof forgotten === 'function') (forgotten as (ok: true) => void)(true);
  };
  io.sockets.on('cache:invalidate', tagsFromPeer);
  io.sockets.on('session:forget', sessionFromPeer);
  if (sessions) {
    sessions.onChange = (sessionId) =>
      new Promise<void>((resolve) => {
        if (!peers) return resolve();
        const gaveUp = setTimeout(resolve, SESSION_FORGET_WAIT_MS);
        io.serverSideEmit('session:forget', sessionId, () => {
          clearTimeout(gaveUp);
          resolve();
        });
      });
  }
  return () => {
    stopInvalidating();
    io.sockets.off('cache:invalidate', tagsFromPeer);
    io.sockets.off('session:forget', sessionFromPeer);
    if (sessions) sessions.onChange = async () => {};
  };
}
