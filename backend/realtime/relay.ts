import type { EventBus } from '../events/event-bus.ts';
import type { IO } from './gateway.ts';
import { FEED_ROOM, pinRoom, sessionRoom, userRoom } from './rooms.ts';

/**
 * The one place where domain events become socket emits. With the Redis adapter, `io.to(room)`
 * reaches that room's sockets on every instance. Returns a function that unsubscribes everything.
 */
export function startRelay(io: IO, events: EventBus): () => void {
  const offs = [
    // Every change's `seq` goes on with it (DESIGN §12): the client applies each seq once.
    events.on('pin.created', ({ pin, seq }) => io.to(FEED_ROOM).emit('pin:created', { pin, seq })),
    events.on('pin.updated', ({ pin, seq }) => io.to(FEED_ROOM).emit('pin:updated', { pin, seq })),
    events.on('pin.deleted', ({ pinId, seq }) => io.to(FEED_ROOM).emit('pin:deleted', { pinId, seq })),
    events.on('pin.likes', ({ pinId, likesCount, version, seq }) =>
      io.to(pinRoom(pinId)).emit('pin:likes', { pinId, likesCount, version, seq }),
    ),
    events.on('comment.created', ({ comment, seq }) => io.to(pinRoom(comment.pin_id)).emit('comment:created', { comment, seq })),
    events.on('comment.updated', ({ comment, seq }) => io.to(pinRoom(comment.pin_id)).emit('comment:updated', { comment, seq })),
    events.on('comment.deleted', ({ commentId, pinId, seq }) =>
      io.to(pinRoom(pinId)).emit('comment:deleted', { commentId, pinId, seq }),
    ),
    events.on('favorite.added', ({ userId, favorite, seq }) => io.to(userRoom(userId)).emit('favorite:added', { favorite, seq })),
    events.on('favorite.removed', ({ userId, favoriteId, pinId, seq }) =>
      io.to(userRoom(userId)).emit('favorite:removed', { favoriteId, pinId, seq }),
    ),
    events.on('board.created', ({ board, seq }) => io.to(userRoom(board.user_id)).emit('board:created', { board, seq })),
    events.on('board.updated', ({ board, seq }) => io.to(userRoom(board.user_id)).emit('board:updated', { board, seq })),
    events.on('board.deleted', ({ userId, boardId, seq }) => io.to(userRoom(userId)).emit('board:deleted', { boardId, seq })),
    events.on('board.pin-added', ({ userId, boardId, pin, pinCount, seq }) =>
      io.to(userRoom(userId)).emit('board:pin-added', { boardId, pin, pinCount, seq }),
    ),
    events.on('board.pin-removed', ({ userId, boardId, pinId, pinCount, seq }) =>
      io.to(userRoom(userId)).emit('board:pin-removed', { boardId, pinId, pinCount, seq }),
    ),
    events.on('session.ended', ({ sessionId }) => {
      const room = sessionRoom(sessionId);
      io.to(room).emit('session:ended', {});
      io.in(room).disconnectSockets(true);
    }),
  ];
  return () => offs.forEach((off) => off());
}
