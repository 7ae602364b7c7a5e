import { type Board, boardForReader } from '../../contract/boards.ts';
import { readersByRole } from '../boards/board-reader.ts';
import type { EventBus } from '../events/event-bus.ts';
import type { IO } from './gateway.ts';
import { FEED_ROOM, pinRoom, sessionRoom, userRoom } from './rooms.ts';

/** The `user:` rooms of a board's members: one emit reaches each member's sockets once. */
const memberRooms = (memberIds: readonly number[]) => memberIds.map(userRoom);

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
    events.on('board.updated', ({ board, memberIds, seq }) =>
      emitBoardPerRole(board, memberIds, (forReader, rooms) => io.to(rooms).emit('board:updated', { board: forReader, seq })),
    ),
    events.on('board.deleted', ({ boardId, memberIds, seq }) => {
      if (memberIds.length) io.to(memberRooms(memberIds)).emit('board:deleted', { boardId, seq });
    }),
    events.on('board.pin-added', ({ boardId, pin, pinCount, memberIds, seq }) => {
      if (memberIds.length) io.to(memberRooms(memberIds)).emit('board:pin-added', { boardId, pin, pinCount, seq });
    }),
    events.on('board.pin-removed', ({ boardId, pinId, pinCount, memberIds, seq }) => {
      if (memberIds.length) io.to(memberRooms(memberIds)).emit('board:pin-removed', { boardId, pinId, pinCount, seq });
    }),
    events.on('board.member-added', ({ boardId, member, board, memberIds, seq }) =>
      emitBoardPerRole(board, memberIds, (forReader, rooms) =>
        io.to(rooms).emit('board:member-added', { boardId, member, board: forReader, seq }),
      ),
    ),
    events.on('board.member-removed', ({ boardId, userId, memberIds, seq }) => {
      if (memberIds.length) io.to(memberRooms(memberIds)).emit('board:member-removed', { boardId, userId, seq });
    }),
    events.on('import.progress', ({ userId, progress }) => io.to(userRoom(userId)).emit('import:progress', progress)),
    events.on('session.ended', ({ sessionId }) => {
      const room = sessionRoom(sessionId);
      io.to(room).emit('session:ended', {});
      io.in(room).disconnectSockets(true);
    }),
  ];
  return () => offs.forEach((off) => off());
}

/**
 * A board's `role` is each reader's own: the owner's sockets get the board as its owner, the
 * collaborators' as a collaborator (boardForReader, which GET /api/changes uses too).
 */
function emitBoardPerRole(board: Board, memberIds: readonly number[], emit: (board: Board, rooms: string[]) => void): void {
  const { owner, collaborators } = readersByRole(board.user_id, memberIds);
  if (owner.length) emit(boardForReader(board, board.user_id), memberRooms(owner));
  const [firstCollaborator] = collaborators;
  if (firstCollaborator !== undefined) emit(boardForReader(board, firstCollaborator), memberRooms(collaborators));
}
