import { beforeAll, expect, test } from 'vitest';
import type { Board } from '../../contract/boards.ts';
import type { Pin } from '../../contract/pins.ts';
import { allPages } from '../support/client.ts';
import { BOUNDS, formatMs, timeUntil } from '../support/eventually.ts';
import { histogram } from '../support/faults.ts';
import { nextEvent, type TestSocket } from '../support/sockets.ts';
import { useFaultCluster } from '../support/use-fault-cluster.ts';
import { type Answer, loadLoop, mapLimit, signUpMany, summary, timed } from './helpers.ts';

// SIGTERM to one instance (a deploy, a scale-down) while users work through nginx.
// docs/operations.md (Faults): it stops accepting, finishes its in-flight requests, closes its
// sockets so clients reconnect elsewhere, and exits 0. Through nginx no request may fail because of
// it: new connections are refused by the stopping instance (nothing sent yet, so nginx retries them
// on the other one). The scenario runs once; each test checks one promise.

const faults = useFaultCluster();
let scene: Awaited<ReturnType<typeof stopOneInstanceUnderLoad>>;
beforeAll(async () => {
  scene = await stopOneInstanceUnderLoad();
});

const USERS = 12;
/** Rounds each load loop runs before the SIGTERM (about a second) and after the exit (about two). */
const ROUNDS_BEFORE = 40;
const ROUNDS_AFTER = 80;

/**
 * 12 users with sockets through nginx; six of them send requests (three create pins, three list
 * pins and ask who they are). After ROUNDS_BEFORE rounds each, the first instance gets SIGTERM; the
 * load goes on until it has exited and every loop has run ROUNDS_AFTER more; then the dropped
 * sockets come back, or the bound passes.
 */
async function stopOneInstanceUnderLoad() {
  const { cluster } = faults;
  const [leaving, staying] = cluster.apps;
  if (!leaving || !staying) throw new Error('two instances expected');
  const users = await signUpMany(cluster.url, USERS, 'term');
  const sockets: TestSocket[] = [];
  for (const { client } of users) sockets.push(await faults.socket(cluster.url, client));
  const onLeaving = (await leaving.stats()).sockets;
  expect(onLeaving, 'sockets on the instance to be stopped').toBeGreaterThan(0);

  let terminatedAt = 0;
  const disconnected = new Set<number>();
  const reconnectMs = new Map<number, number>();
  sockets.forEach((socket, i) => {
    socket.on('disconnect', () => {
      if (terminatedAt) disconnected.add(i);
    });
    socket.on('connect', () => {
      if (terminatedAt && !reconnectMs.has(i)) reconnectMs.set(i, performance.now() - terminatedAt);
    });
  });

  const sent: Array<{ kind: string; title?: string; answer: Answer<unknown> }> = [];
  let n = 0;
  const loops = users.slice(0, 6).map(({ client }, i) =>
    loadLoop(async () => {
      if (i < 3) {
        const title = `term-${++n}`;
        // With an Idempotency-Key, as the web client sends: nginx may then repeat the POST on the
        // other instance if the stopping one reset its connection (see deploy/nginx/pinboard.conf).
        const create = () => client.request('POST', '/api/pins/', { json: { title, imageUrl: 'https://a.test/t.png' }, headers: { 'idempotency-key': `key-${title}` } });
        sent.push({ kind: 'create pin', title, answer: await timed(create) });
      } else {
        sent.push({ kind: 'list pins', answer: await timed(() => client.get('/api/pins/')) });
        sent.push({ kind: 'who am i', answer: await timed(() => client.get('/api/auth/')) });
      }
    }),
  );
  await Promise.all(loops.map((loop) => loop.reached(ROUNDS_BEFORE)));
  terminatedAt = performance.now();
  leaving.child.kill('SIGTERM');
  // Waited for from the SIGTERM on, while the load goes on.
  const allBack = timeUntil(BOUNDS.socketReconnectMs, () => disconnected.size >= onLeaving && reconnectMs.size >= disconnected.size && sockets.every((s) => s.connected), terminatedAt);
  const exit = await leaving.exited;
  const exitMs = performance.now() - terminatedAt;
  await Promise.all(loops.map((loop) => loop.finish(ROUNDS_AFTER)));
  const allBackMs = await allBack;
  return { cluster, staying, users, sockets, onLeaving, disconnected, reconnectMs, allBackMs, sent, exit, exitMs };
}

test('no request through nginx fails while an instance stops', () => {
  const { sent } = scene;
  const failed = sent.filter((s) => s.answer.status < 200 || s.answer.status >= 300);
  console.log(
    `SIGTERM under load: ${sent.length} requests, ${failed.length} failed; statuses ${JSON.stringify(histogram(sent.map((s) => s.answer)))}; ` + `latency ${summary(sent.map((s) => s.answer.ms))}`,
  );
  for (const f of failed.slice(0, 10)) console.log(`  failed: ${f.kind} → ${f.answer.status} ${f.answer.error ?? JSON.stringify(f.answer.response?.body).slice(0, 200)}`);
  expect(failed.map((f) => `${f.kind} → ${f.answer.status} ${f.answer.error ?? ''}`)).toEqual([]);
});

test('every pin acknowledged while the instance stops is stored, and none twice', async () => {
  const { sent, users } = scene;
  const reader = users[0]?.client;
  if (!reader) throw new Error('no users');
  const acknowledged = sent.filter((s) => s.kind === 'create pin' && s.answer.status === 201);
  const lost = (
    await mapLimit(acknowledged, 8, async (s) => {
      const id = (s.answer.response?.body as Pin | undefined)?.id;
      const read = await reader.get<Pin>(`/api/pins/${id}`);
      return read.status === 200 ? undefined : `${s.title}: ${read.status}`;
    })
  ).filter((entry) => entry !== undefined);
  // Nothing was created twice by a repeated POST.
  const titles = (await allPages<Pin>(reader, '/api/pins/?limit=100', 'pins')).map((p) => p.title).filter((t) => t.startsWith('term-'));
  const duplicated = titles.filter((title, i) => titles.indexOf(title) !== i);
  console.log(`pins: ${acknowledged.length} acknowledged, ${lost.length} lost, ${duplicated.length} duplicated, ${titles.length} stored`);
  expect(lost).toEqual([]);
  expect(duplicated).toEqual([]);
  expect(titles.length).toBe(acknowledged.length);
});

test('the stopped instance exits with code 0', () => {
  const { exit, exitMs } = scene;
  console.log(`exit ${JSON.stringify(exit)} ${exitMs.toFixed(0)} ms after SIGTERM`);
  expect(exit).toEqual({ code: 0, signal: null });
});

test("only the stopped instance's sockets drop, and each reconnects to the other instance", async () => {
  const { onLeaving, disconnected, reconnectMs, allBackMs, sockets, staying } = scene;
  const onStaying = (await staying.stats()).sockets;
  console.log(
    `sockets: ${onLeaving} on the stopped instance, ${disconnected.size} disconnected, ${reconnectMs.size} reconnected ` +
      `(${summary([...reconnectMs.values()])}; all back ${formatMs(allBackMs, BOUNDS.socketReconnectMs)} after SIGTERM), ${onStaying} now on the other`,
  );
  expect(disconnected.size).toBe(onLeaving);
  expect(reconnectMs.size).toBe(disconnected.size);
  expect(sockets.filter((socket) => !socket.connected)).toHaveLength(0);
  expect(onStaying).toBe(USERS);
});

test("the moved sockets still get their users' events", async () => {
  const { users, sockets } = scene;
  await Promise.all(
    users.map(async ({ client, user }, i) => {
      const board = await client.post<Board>('/api/boards/', { name: `After SIGTERM ${i}` });
      expect(board.status).toBe(201);
      const event = await nextEvent(sockets[i] as TestSocket, 'board:created', (p) => p.board.id === board.body.id, BOUNDS.eventMs);
      expect(event.board.user_id).toBe(user.id);
    }),
  );
});
