// Server events → the store, with the idempotent helpers of ../state: the map below is the one list
// of which event does what.
// Every handler can run twice, or late, without harm: upserts go by id and drop an older copy (by
// updated_at, inside the helpers); removals of something already gone are no-ops; and an entity
// this tab saw deleted is never brought back by a late create/update (ids are never reused).
import type { ServerEventName, ServerEventPayload } from '../../contract/events.ts';
import type { Pin } from '../../contract/index.ts';
import { deletedPinIdsAtom, sessionUserAtom } from '../state/atoms.ts';
import { addBoardMember, removeBoardMember } from '../state/board-members.ts';
import { addBoard, addPinToBoard, removeBoard, removePinFromBoard, upsertBoard } from '../state/boards.ts';
import { addComment, removeComment, upsertComment } from '../state/comments.ts';
import { addFavorite, removeFavorite } from '../state/favorites.ts';
import { LIST, updateList, withFirst } from '../state/lists.ts';
import { removePin, setPinLikes, upsertPin } from '../state/pins.ts';
import { announceInvitation } from '../state/invitations.ts';
import { clearSession } from '../state/session.ts';
import type { Store } from '../state/store.ts';
import { setBoardPresence, setPinViewers } from './presence-state.ts';
import { setImportProgress } from '../state/import-progress.ts';

/** `changes:head` is not applied to the store: the change tracker (./changes.ts) reads it. */
type Handlers = { [E in Exclude<ServerEventName, 'changes:head'>]: (payload: ServerEventPayload<E>) => void };

export interface EventApplier {
  /** Applies one server event; returns false for an unknown event name or a payload that failed. */
  apply(name: string, payload: unknown): boolean;
}

function markPinDeleted(store: Store, pinId: number): void {
  store.set(deletedPinIdsAtom, (prev) => (prev.has(pinId) ? prev : new Set(prev).add(pinId)));
}

export function isPinDeleted(store: Store, pinId: number): boolean {
  return store.get(deletedPinIdsAtom).has(pinId);
}

/**
 * A new pin joins the signed-in owner's "your pins" list and its owner's user page list (newest first). The home grid does not
 * take it in under the reader: it counts it for its "N new pins" pill (../pages/HomePage.tsx).
 */
function addCreatedPin(store: Store, pin: Pin): void {
  upsertPin(store, pin);
  if (store.get(sessionUserAtom)?.id === pin.user_id) updateList(store, LIST.yourPins(pin.user_id), (list) => withFirst(list, pin.id));
  updateList(store, LIST.userPins(pin.user_id), (list) => withFirst(list, pin.id));
}

/** Removes a pin everywhere (grids, favorites, boards, its comments) and remembers it is gone. */
export function dropDeletedPin(store: Store, pinId: number): void {
  markPinDeleted(store, pinId);
  removePin(store, pinId);
}

/**
 * The seq of each pin deletion heard here. A pin made private is deleted for those who may not see
 * it; made public again, its creation comes later in the log, and only a creation numbered after
 * the deletion brings it back (an older one, replayed after a reconnect, does not).
 */
function pinRevivals(store: Store) {
  const deletedAt = new Map<number, number>();
  return {
    deleted(pinId: number, seq: number | undefined): void {
      deletedAt.set(pinId, Math.max(seq ?? Infinity, deletedAt.get(pinId) ?? -Infinity));
    },
    /** Whether a creation numbered `seq` brings the deleted pin back (and if so, it is no longer gone). */
    revived(pinId: number, seq: number | undefined): boolean {
      const at = deletedAt.get(pinId);
      if (at === undefined || seq === undefined || seq <= at) return false;
      deletedAt.delete(pinId);
      store.set(deletedPinIdsAtom, (prev) => {
        const next = new Set(prev);
        next.delete(pinId);
        return next;
      });
      return true;
    },
  };
}

export function createEventApplier(store: Store): EventApplier {
  const goneComments = new Set<number>();
  const goneFavorites = new Set<number>();
  const goneBoards = new Set<number>();
  const pinGone = (pinId: number) => isPinDeleted(store, pinId);
  const { deleted, revived } = pinRevivals(store);

  const handlers: Handlers = {
    'pin:created': ({ pin, seq }) => {
      if (!pinGone(pin.id) || revived(pin.id, seq)) addCreatedPin(store, pin);
    },
    'pin:updated': ({ pin }) => {
      if (!pinGone(pin.id)) upsertPin(store, pin);
    },
    // removePin also drops the pin from favorites, boards and its comments.
    'pin:deleted': ({ pinId, seq }) => {
      deleted(pinId, seq);
      dropDeletedPin(store, pinId);
    },
    // An older count arriving late is ignored (the rule lives with the count, in ../state/pins.ts).
    'pin:likes': ({ pinId, likesCount, version }) => setPinLikes(store, pinId, likesCount, version),
    'comment:created': ({ comment }) => {
      if (!goneComments.has(comment.id) && !pinGone(comment.pin_id)) addComment(store, comment);
    },
    'comment:updated': ({ comment }) => {
      if (!goneComments.has(comment.id) && !pinGone(comment.pin_id)) upsertComment(store, comment);
    },
    'comment:deleted': ({ commentId }) => {
      goneComments.add(commentId);
      removeComment(store, commentId);
    },
    'favorite:added': ({ favorite }) => {
      if (!goneFavorites.has(favorite.id) && !pinGone(favorite.pin_id)) addFavorite(store, favorite);
    },
    'favorite:removed': ({ favoriteId, pinId }) => {
      goneFavorites.add(favoriteId);
      removeFavorite(store, favoriteId, pinId);
    },
    'board:created': ({ board }) => {
      if (!goneBoards.has(board.id)) addBoard(store, { ...board, pins: board.pins.filter((p) => !pinGone(p.id)) }, board.user_id);
    },
    'board:updated': ({ board }) => {
      if (!goneBoards.has(board.id)) upsertBoard(store, { ...board, pins: board.pins.filter((p) => !pinGone(p.id)) });
    },
    'board:deleted': ({ boardId }) => {
      goneBoards.add(boardId);
      removeBoard(store, boardId);
    },
    'board:pin-added': ({ boardId, pin, pinCount }) => {
      if (!pinGone(pin.id)) addPinToBoard(store, boardId, pin, pinCount);
    },
    'board:pin-removed': ({ boardId, pinId, pinCount }) => removePinFromBoard(store, boardId, pinId, pinCount),
    // Presence (./presence-state.ts): the server's latest figure replaces the last.
    presence: ({ pinId, viewers }) => setPinViewers(store, pinId, viewers),
    'board:presence': ({ boardId, users }) => setBoardPresence(store, boardId, users),
    // Being removed from a board does not mark it gone here, so an invitation after a removal
    // brings it back; only a deleted board stays gone.
    'board:member-added': ({ boardId, member, board }) => {
      if (goneBoards.has(boardId)) return;
      const myId = store.get(sessionUserAtom)?.id;
      addBoardMember(store, boardId, member, board, myId);
      if (member.id === myId) announceInvitation(store, boardId, board.name, member);
    },
    'board:member-removed': ({ boardId, userId }) => removeBoardMember(store, boardId, userId, store.get(sessionUserAtom)?.id),
    // Another tab (or the server) ended this session: this tab is signed out and goes on as anonymous.
    'session:ended': () => clearSession(store),
    // An import's counts (not a change: the import page also reads GET /api/imports/{id}).
    'import:progress': (progress) => setImportProgress(store, progress),
  };

  return {
    apply(name, payload) {
      if (!Object.hasOwn(handlers, name) || !payload || typeof payload !== 'object') return false;
      const handler = handlers[name as keyof Handlers] as (payload: unknown) => void;
      try {
        handler(payload);
        return true;
      } catch (error) {
        // A malformed payload must not break the socket's other events.
        console.warn(`Could not apply ${name}`, error);
        return false;
      }
    },
  };
}
