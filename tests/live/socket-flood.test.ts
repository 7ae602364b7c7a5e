import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { LIMITS } from '../../contract/limits.ts';
import { createTestDatabase, REDIS_URL } from '../support/database.ts';
import { type AppProcess, type InstanceStats, startAppProcess } from '../support/processes.ts';
import { connectSocket, rawWebSocketBurst, type TestSocket, watch } from '../support/sockets.ts';

// Anonymous sockets from one address try to make an instance (its own process, Postgres + Redis as
// in production) hold far more pin rooms than any screen needs. The caps hold as counts: sockets
// accepted per address, pin rooms per socket. Memory is printed before, at the peak and after the
// sockets have left; only a generous bound is asserted on it.
const PER_ADDRESS = 50;
const ATTEMPTS = 60;
const ROUNDS = 4;
const MESSAGES = 8; // per socket, each with LIMITS.watchIds new ids: 4 000 pins asked for by each socket

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: AppProcess;
const opened: TestSocket[] = [];
const connect = async () => {
  const socket = await connectSocket(app.url);
  opened.push(socket);
  return socket;
};
/** The instance's answer, or a failure if it has exited (crashed) meanwhile. */
const alive = <T>(answer: Promise<T>): Promise<T> => Promise.race([answer, app.exited.then((exit) => Promise.reject(new Error(`the instance exited: ${JSON.stringify(exit)}`)))]);

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startAppProcess({ DATABASE_URL: database.url, REDIS_URL, SOCKET_CHANNEL: `pinboard-test:${new URL(database.url).pathname.slice(1)}`, AUTO_MIGRATE: 'true', AUTO_SEED: 'false' });
});
afterAll(async () => {
  for (const socket of opened) socket.disconnect();
  await app?.stop();
  await database?.drop();
});

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
const line = (label: string, s: InstanceStats) =>
  `${label.padEnd(7)} rss ${mb(s.rss)}, heap used ${mb(s.heapUsed)} of ${mb(s.heapTotal)}, external ${mb(s.external)}; ` +
  `sockets ${s.namespaceSockets}, pin rooms ${s.pinRooms} (most on one socket: ${s.maxPinRoomsPerSocket})`;

/** One flood: every attempt from this address, every accepted socket asking for 4 000 pins. */
async function flood(round: number) {
  const attempts = await Promise.allSettled(Array.from({ length: ATTEMPTS }, connect));
  const sockets = attempts.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  // Distinct ids for every socket, so rooms are not shared and each socket's count shows.
  const acks = await Promise.all(
    sockets.flatMap((socket, s) =>
      Array.from({ length: MESSAGES }, (_, m) => {
        const first = 1 + ((round * ATTEMPTS + s) * MESSAGES + m) * LIMITS.watchIds;
        return watch(socket, { pinIds: Array.from({ length: LIMITS.watchIds }, (_, i) => first + i) });
      }),
    ),
  );
  const peak = await app.stats();
  for (const socket of sockets) socket.disconnect();
  await vi.waitFor(async () => expect((await app.stats()).sockets).toBe(0), { timeout: 20_000, interval: 250 });
  const after = await app.stats();
  return { accepted: sockets.length, watches: acks.length, watchesAccepted: acks.filter((ack) => ack.ok).length, peak, after };
}

test('floods of sockets watching thousands of pins each: sockets and rooms stay capped, memory comes back', async () => {
  const before = await app.stats();
  expect(before.gc).toBe(true);
  const report = [line('before', before)];
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    const result = await flood(round);
    rounds.push(result);
    report.push(
      `round ${round + 1}: ${ATTEMPTS} sockets tried, ${result.accepted} accepted; ${result.watches} watches of ${LIMITS.watchIds} ids, ${result.watchesAccepted} accepted`,
      line('  peak', result.peak),
      line('  after', result.after),
    );
  }
  console.log(report.join('\n'));

  for (const { accepted, watchesAccepted, peak, after } of rounds) {
    expect(accepted).toBe(PER_ADDRESS);
    expect(watchesAccepted).toBe(PER_ADDRESS * (LIMITS.watchedPinsPerSocket / LIMITS.watchIds));
    expect(peak.namespaceSockets).toBe(PER_ADDRESS);
    expect(peak.maxPinRoomsPerSocket).toBe(LIMITS.watchedPinsPerSocket);
    expect(peak.pinRooms).toBe(PER_ADDRESS * LIMITS.watchedPinsPerSocket);
    expect(after.pinRooms).toBe(0);
    // Generous: catches only a leak of the order of what a flood adds.
    expect(after.heapUsed - before.heapUsed).toBeLessThan(16 * 2 ** 20);
  }

  // The allowance is back for the next visitors.
  const again: TestSocket[] = [];
  await vi.waitFor(
    async () => {
      while (again.length < PER_ADDRESS) again.push(await connect());
    },
    { timeout: 10_000, interval: 200 },
  );
  await expect(connect()).rejects.toThrow('websocket error');
  for (const socket of again) socket.disconnect();
});

test('many CONNECT packets on one connection make no extra sockets and do not bring the instance down', async () => {
  // "40" is an Engine.IO message carrying a Socket.IO CONNECT to "/". Read together, they all reach
  // the namespace before the first socket has finished connecting. Eventually: the previous test's
  // connections are given back as their TCP connections close.
  const burst = await vi.waitFor(
    async () => {
      const result = await rawWebSocketBurst(
        app.url,
        Array.from({ length: 20 }, () => '40'),
      );
      expect(result.upgraded).toBe(true);
      return result;
    },
    { timeout: 10_000, interval: 200 },
  );
  // The server answered no CONNECT (the first would get `40{"sid":…}`): it closed the connection.
  expect(burst.received.filter((message) => message.startsWith('40'))).toEqual([]);
  expect((await alive(app.stats())).namespaceSockets).toBe(0);
  // Still serving.
  expect((await alive(fetch(`${app.url}/healthz`))).status).toBe(200);
  expect((await alive(connect())).connected).toBe(true);
});
