import { afterAll, beforeAll, expect, onTestFailed, test } from 'vitest';
import type { Board } from '../../contract/boards.ts';
import type { Pin } from '../../contract/pins.ts';
import { type FaultCluster, histogram, startFaultCluster } from '../support/faults.ts';
import { nextEvent, type TestSocket } from '../support/sockets.ts';
import { type Answer, liveSocket, mapLimit, repeatUntil, signUpMany, sleep, summary, timed } from './helpers.ts';

// SIGTERM to one instance (a deploy, a scale-down) while users work through nginx. DESIGN §8: it
// stops accepting, finishes its in-flight requests, closes its sockets so clients reconnect
// elsewhere, and exits 0. Through nginx no request may fail because of it: new connections are
// refused by the stopping instance (nothing sent yet, so nginx retries them on the other one).

let cluster: FaultCluster;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  cluster = await startFaultCluster();
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await cluster?.close();
});

test('SIGTERM during a request load through nginx: no failed request, exit code 0, sockets move to the other instance', async () => {
  onTestFailed(() => cluster.printLogs());
  const url = cluster.url;
  const [leaving, staying] = cluster.apps;
  if (!leaving || !staying) throw new Error('two instances expected');
  const users = await signUpMany(url, 12, 'term');
  const userSockets: TestSocket[] = [];
  for (const { client } of users) {
    const socket = await liveSocket(url, client);
    sockets.push(socket);
    userSockets.push(socket);
  }
  const onLeaving = (await leaving.stats()).sockets;
  expect(onLeaving).toBeGreaterThan(0);

  let terminatedAt = 0;
  const disconnectedAt = new Map<number, number>();
  const reconnectMs = new Map<number, number>();
  userSockets.forEach((socket, i) => {
    socket.on('disconnect', () => {
      if (terminatedAt && !disconnectedAt.has(i)) disconnectedAt.set(i, performance.now());
    });
    socket.on('connect', () => {
      if (terminatedAt && !reconnectMs.has(i)) reconnectMs.set(i, performance.now() - terminatedAt);
    });
  });

  // Load: writers create pins, readers list pins and ask who they are, all through nginx.
  const sent: Array<{ kind: string; title?: string; answer: Answer<unknown> }> = [];
  const start = performance.now();
  const until = start + 4000;
  let n = 0;
  const load = users.slice(0, 6).map(({ client }, i) =>
    repeatUntil(until, async () => {
      if (i < 3) {
        const title = `term-${++n}`;
        // With an Idempotency-Key, as the web client sends: nginx may then repeat the POST on the
        // other instance if the stopping one reset its connection (see deploy/nginx/pinboard.conf).
        const create = () =>
          client.request('POST', '/api/pins/', { json: { title, imageUrl: 'https://a.test/t.png' }, headers: { 'idempotency-key': `key-${title}` } });
        sent.push({ kind: 'create pin', title, answer: await timed(create) });
      } else {
        sent.push({ kind: 'list pins', answer: await timed(() => client.get('/api/pins/')) });
        sent.push({ kind: 'who am i', answer: await timed(() => client.get('/api/auth/')) });
      }
    }),
  );
  await sleep(1200);
  terminatedAt = performance.now();
  leaving.child.kill('SIGTERM');
  const exit = await leaving.exited;
  const exitMs = performance.now() - terminatedAt;
  await Promise.all(load);

  // Sockets of the stopped instance are back, on the other one.
  const deadline = performance.now() + 6000;
  while ((reconnectMs.size < disconnectedAt.size || !userSockets.every((s) => s.connected)) && performance.now() < deadline) await sleep(25);
  const onStaying = (await staying.stats()).sockets;

  const failed = sent.filter((s) => s.answer.status < 200 || s.answer.status >= 300);
  const acknowledged = sent.filter((s) => s.kind === 'create pin' && s.answer.status === 201);
  const reader = users[0]?.client;
  if (!reader) throw new Error('no users');
  const lost = (
    await mapLimit(acknowledged, 8, async (s) => {
      const id = (s.answer.response?.body as Pin | undefined)?.id;
      const read = await reader.get<Pin>(`/api/pins/${id}`);
      return read.status === 200 ? undefined : `${s.title}: ${read.status}`;
    })
  ).filter((entry) => entry !== undefined);

  // Nothing was created twice by a repeated POST.
  const titles = (await reader.get<{ pins: Pin[] }>('/api/pins/')).body.pins.map((p) => p.title).filter((t) => t.startsWith('term-'));
  const duplicated = titles.filter((title, i) => titles.indexOf(title) !== i);

  console.log(
    `SIGTERM under load: ${sent.length} requests (${acknowledged.length} pins created), ${failed.length} failed, ${lost.length} lost, ${duplicated.length} duplicated; ` +
      `statuses ${JSON.stringify(histogram(sent.map((s) => s.answer)))}; latency ${summary(sent.map((s) => s.answer.ms))}`,
  );
  for (const f of failed.slice(0, 10)) console.log(`  failed: ${f.kind} → ${f.answer.status} ${f.answer.error ?? JSON.stringify(f.answer.response?.body).slice(0, 200)}`);
  console.log(
    `exit ${JSON.stringify(exit)} ${exitMs.toFixed(0)} ms after SIGTERM; sockets: ${onLeaving} on the stopped instance, ` +
      `${disconnectedAt.size} disconnected, ${reconnectMs.size} reconnected (${summary([...reconnectMs.values()])}), ${onStaying} now on the other`,
  );

  expect(failed.map((f) => `${f.kind} → ${f.answer.status} ${f.answer.error ?? ''}`)).toEqual([]);
  expect(lost).toEqual([]);
  expect(duplicated).toEqual([]);
  expect(titles.length).toBe(acknowledged.length);
  expect(exit).toEqual({ code: 0, signal: null });
  // Only the stopped instance's sockets drop; the other instance's stay connected.
  expect(disconnectedAt.size).toBe(onLeaving);
  expect(reconnectMs.size).toBe(disconnectedAt.size);
  expect(userSockets.every((s) => s.connected)).toBe(true);
  expect(onStaying).toBe(users.length);

  // The moved sockets still get their users' events.
  await Promise.all(
    users.map(async ({ client, user }, i) => {
      const board = await client.post<Board>('/api/boards/', { name: `After SIGTERM ${i}` });
      expect(board.status).toBe(201);
      expect((await nextEvent(userSockets[i] as TestSocket, 'board:created', (p) => p.board.id === board.body.id)).board.user_id).toBe(user.id);
    }),
  );
});
