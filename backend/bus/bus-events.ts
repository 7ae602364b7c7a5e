import type { ChangeData, ChangeEventName } from '../../contract/events.ts';
import type { ImportProgress } from '../../contract/imports.ts';

/**
 * Who a change is for, said once by the write that records it (backend/changes/write.ts). The one
 * field decides both who may read it from GET /api/changes (docs/change-log.md) and which rooms
 * hear it live (docs/realtime.md):
 * - `'feed'`: everyone; every socket (room `feed`);
 * - `{ pinId }`: everyone; the sockets watching that pin (room `pin:<id>`); with `userIds` (a private
 *   pin's viewers as of the change, docs/who-sees-what.md): only they, their sockets (rooms
 *   `user:<id>`) whether they watch it or not, so nobody who stopped being one hears it;
 * - `{ userIds }`: only these users (an actor, a board's members as of the change); their sockets
 *   (rooms `user:<id>`);
 * - `{ allBut }`: everyone may read it from the log, but these users' sockets do not hear it live:
 *   the same write tells them otherwise (a pin made private is gone for everyone but its viewers,
 *   who would see it blink out and back in).
 */
export type Audience = 'feed' | { pinId: number; userIds?: readonly number[] } | { userIds: readonly number[] } | { allBut: readonly number[] };

/**
 * A committed change as the log numbered it: its socket event name (contract/events.ts), its data
 * as the log keeps it (without `seq`), its audience, and its `seq`. One member per event, so a
 * check of `event` narrows `data`.
 */
export type Change<E extends ChangeEventName = ChangeEventName> = {
  [K in E]: { event: K; data: ChangeData<K>; audience: Audience; seq: number };
}[E];

/**
 * What the in-process bus carries. Every change goes out as `change`, published by write() after
 * its transaction committed, and nothing else announces one. The other two are not changes (the
 * log has no row of them, they carry no `seq`), so nobody replays them:
 * - `session.ended`: a login session is over; its sockets are told and disconnected;
 * - `import.progress`: an import's counts for its user's sockets, at most once a second: the
 *   import's row keeps them (the imports API answers them) and the next report supersedes this one.
 */
export interface BusEvents {
  change: Change;
  'session.ended': { userId: number; sessionId: string };
  'import.progress': { userId: number; progress: ImportProgress };
}
