import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { readHead } from '../changes/changes.service.ts';
import type { IO, PinboardSocket } from './gateway.ts';

// `changes:head {seq}`: the "poke" of poke-then-pull (docs/change-log.md). Socket.IO over the Redis adapter
// is at-most-once: an event is lost when its instance dies between its commit and its publish,
// while Redis is away, or while a client is disconnected. The log has every change, and a client
// that learns the log's head is past its complete-through cursor pulls GET /api/changes. So each
// instance tells its own sockets the head:
//   - when a socket connects (after it joined its rooms): a reconnecting client knows at once how
//     far behind it is, and a fresh page starts its cursor there;
//   - after its Redis adapter reconnects (other instances' events of the outage were dropped);
//   - every CHANGES_HEAD_INTERVAL_SECONDS while the log moved: this heals the one loss no client
//     can notice by itself (an instance killed between a commit and its publish), and it moves
//     connected clients' cursors on so that a later catch-up is short.

export interface HeadAnnouncer {
  /** Tells this instance's sockets the head now (the adapter is back). */
  announce(): void;
  stop(): void;
}

export function startHeadAnnouncer(io: IO, db: Kysely<DB>, options: { intervalMs: number; onError: (error: unknown) => void }): HeadAnnouncer {
  /** One read shared by the sockets that connect while it runs (a reconnect storm is one query). */
  let reading: Promise<number> | null = null;
  const head = () => {
    reading ??= readHead(db).finally(() => {
      reading = null;
    });
    return reading;
  };
  let announced = -1;
  const announce = (onlyIfMoved: boolean) => {
    head().then(
      (seq) => {
        if (onlyIfMoved && seq <= announced) return;
        announced = Math.max(announced, seq);
        // `local`: every instance tells its own sockets; through the adapter it would reach them all N times.
        io.local.emit('changes:head', { seq });
      },
      (error: unknown) => options.onError(error),
    );
  };

  const onConnection = (socket: PinboardSocket) => {
    head().then(
      (seq) => {
        if (socket.connected) socket.emit('changes:head', { seq });
      },
      (error: unknown) => options.onError(error),
    );
  };
  io.on('connection', onConnection);
  const timer = setInterval(() => announce(true), options.intervalMs);
  timer.unref();
  return {
    announce: () => announce(false),
    stop() {
      clearInterval(timer);
      io.off('connection', onConnection);
    },
  };
}
