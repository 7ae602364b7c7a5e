import { viewsForReaders } from '../changes/reader-view.ts';
import type { Change } from '../bus/bus-events.ts';
import type { EventBus } from '../bus/event-bus.ts';
import type { IO } from './gateway.ts';
import { FEED_ROOM, pinRoom, sessionRoom, userRoom } from './rooms.ts';

/**
 * The one place where what the bus carries becomes socket emits. With the Redis adapter,
 * `io.to(room)` reaches that room's sockets on every instance. Returns a function that unsubscribes
 * everything.
 */
export function startRelay(io: IO, events: EventBus): () => void {
  const offs = [
    events.on('change', (change) => emitChange(io, change)),
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
 * Where a change is emitted. Socket.IO types each emit by its event name, and TypeScript cannot tie
 * the name of a Change to its data once both are read from the union; write() made them a pair.
 */
type ChangeEmitter = { emit(event: Change['event'], payload: Change['data'] & { seq: number }): boolean };

/**
 * A change goes to the rooms of its audience (the one that decides who reads it from the log), under
 * its own event name, with its `seq` (the client applies each seq once). Users hear it in their
 * `user:` rooms, one emit per view (reader-view.ts): a board's `role` is each reader's own. A
 * private pin's changes go to its viewers' `user:` rooms, not to its `pin:` room, whose sockets
 * were let in by who they were then (docs/who-sees-what.md).
 */
function emitChange(io: IO, { event, data, audience, seq }: Change): void {
  const to = (rooms: string | string[]) => io.to(rooms) as ChangeEmitter;
  if (audience === 'feed') return void to(FEED_ROOM).emit(event, { ...data, seq });
  if ('allBut' in audience) return void (io.to(FEED_ROOM).except(audience.allBut.map(userRoom)) as ChangeEmitter).emit(event, { ...data, seq });
  if ('pinId' in audience && audience.userIds === undefined) return void to(pinRoom(audience.pinId)).emit(event, { ...data, seq });
  for (const view of viewsForReaders(event, data, audience.userIds ?? [])) to(view.readerIds.map(userRoom)).emit(event, { ...view.data, seq });
}
