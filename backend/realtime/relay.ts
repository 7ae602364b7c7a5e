import type { EventBus } from '../events/event-bus.ts';
import type { IO } from './gateway.ts';
import { FEED_ROOM, pinRoom, sessionRoom, userRoom } from './rooms.ts';

/**
 * The one place where domain events become socket emits. With the Redis adapter, `io.to(room)`
 * reaches that room's sockets on every instance. Returns a function that unsubscribes everything.
 */
export function startRelay(io: IO, events: EventBus): () => void {
  const offs = [
    events.on('pin.created', ({ pin }) => io.to(FEED_ROOM).emit('pin:created', { pin })),
    events.on('pin.updated', ({ pin }) => io.to(FEED_ROOM).emit('pin:updated', { pin })),
    events.on('pin.deleted', ({ pinId }) => io.to(FEED_ROOM).emit('pin:deleted', { pinId })),
    events.on('pin.likes', ({ pinId, likesCount, version }) =>
      io.to(pinRoom(pinId)).emit('pin:likes', { pinId, likesCount, version }),
    ),
    events.on('comment.created', ({ comment }) => io.to(pinRoom(comment.pin_id)).emit('comment:created', { comment })),
    events.on('comment.updated', ({ comment }) => io.to(pinRoom(comment.pin_id)).emit('comment:updated', { comment })),
    events.on('comment.deleted', ({ commentId, pinId }) =>
      io.to(pinRoom(pinId)).emit('comment:deleted', { commentId, pinId }),
    ),
    events.on('favorite.added', ({ userId, favorite }) => io.to(userRoom(userId)).emit('favorite:added', { favorite })),
    events.on('favorite.removed', ({ userId, favoriteId, pinId }) =>
      io.to(userRoom(userId)).emit('favorite:removed', { favoriteId, pinId }),
    ),
    events.on('board.created', ({ board }) => io.to(userRoom(board.user_id)).emit('board:created', { board })),
    events.on('board.updated', ({ board }) => io.to(userRoom(board.user_id)).emit('board:updated', { board })),
    events.on('board.deleted', ({ userId, boardId }) => io.to(userRoom(userId)).emit('board:deleted', { boardId })),
    events.on('board.pin-added', ({ userId, boardId, pin, pinCount }) =>
      io.to(userRoom(userId)).emit('board:pin-added', { boardId, pin, pinCount }),
    ),
    events.on('board.pin-removed', ({ userId, boardId, pinId, pinCount }) =>
      io.to(userRoom(userId)).emit('board:pin-removed', { boardId, pinId, pinCount }),
    ),
    events.on('session.ended', ({ sessionId }) => {
      const room = sessionRoom(sessionId);
      io.to(room).emit('session:ended', {});
      io.in(room).disconnectSockets(true);
    }),
  ];
  return () => offs.forEach((off) => off());
}
