import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { ErrorBody } from '../../contract/errors.ts';
import type { Pin } from '../../contract/pins.ts';
import { type ApiClient, signUpUser } from '../support/client.ts';
import { jpeg } from '../support/image-fixtures.ts';
import { useTestServer } from '../support/use-test-server.ts';

// One user's picture fetches cannot stall everybody's: 20 pins pointing at a host that accepts connections
// and never answers used to hold both fetch workers for 15 s × 5 attempts each, and another
// user's fetch waited minutes. Now each user's fetches run one at a time, a host that timed out
// is left alone, and retries wait behind fresh fetches. Both runs below are timed and printed; the
// check is what must hold whatever the machine's speed: the other user's fetch is done while the
// flood's fetches are still waiting.

const EVENTUALLY_MS = 60_000;

let blackHole: TcpServer;
const held: Socket[] = [];
let origin: Server;

beforeAll(async () => {
  // Accepts every connection and never says a word.
  blackHole = createTcpServer((socket) => {
    held.push(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
  const photos = new Map<string, Buffer>();
  origin = createServer(async (req, res) => {
    const name = req.url ?? '';
    if (!photos.has(name)) photos.set(name, await jpeg(320 + photos.size, 240));
    res.writeHead(200, { 'content-type': 'image/jpeg' }).end(photos.get(name));
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  for (const socket of held) socket.destroy();
  await new Promise<void>((resolve) => blackHole.close(() => resolve()));
  await new Promise<void>((resolve) => origin.close(() => resolve()));
});
const server = useTestServer(() => {
  const ports = [(blackHole.address() as AddressInfo).port, (origin.address() as AddressInfo).port].join(',');
  return { env: { FETCH_ALLOW_CIDRS: '127.0.0.1/32', FETCH_ALLOW_PORTS: ports, FETCH_PENDING_PER_USER: '20' } };
});

const originUrl = () => `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
const blackHoleUrl = () => `http://127.0.0.1:${(blackHole.address() as AddressInfo).port}`;

/** Creates a pin with a remote image and answers how long until it has its stored image. */
async function timeFetch(client: ApiClient, name: string): Promise<number> {
  const started = performance.now();
  const created = await client.post<Pin>('/api/pins/', { title: name, imageUrl: `${originUrl()}/${name}.jpg` });
  expect(created.status).toBe(201);
  for (;;) {
    const pin = (await client.get<Pin>(`/api/pins/${created.body.id}`)).body;
    if (pin.image) return performance.now() - started;
    if (performance.now() - started > EVENTUALLY_MS) throw new Error(`the fetch of ${name} did not finish within ${EVENTUALLY_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function waitingFetches(userId: number): Promise<number> {
  return server.server.jobs.sender.pending(server.server.database.db, 'image.fetch', `user:${userId}`, 1_000);
}

test("another user's picture arrives while 20 fetches from a host that never answers are still waiting", { timeout: 180_000 }, async () => {
  const [flooder, bystander] = await Promise.all([signUpUser(server.url, 'flooder'), signUpUser(server.url, 'bystander')]);
  const quiet = await timeFetch(bystander!.client, 'quiet');

  const floodPins: number[] = [];
  for (let i = 0; i < 20; i++) {
    const res = await flooder!.client.post<Pin>('/api/pins/', { title: `stall ${i}`, imageUrl: `${blackHoleUrl()}/stall-${i}.jpg` });
    expect(res.status).toBe(201);
    floodPins.push(res.body.id);
  }
  // The flood has reached the workers: the black hole holds a connection.
  const started = performance.now();
  while (held.length === 0) {
    if (performance.now() - started > EVENTUALLY_MS) throw new Error('no fetch reached the black hole');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const stalled = await timeFetch(bystander!.client, 'during-flood');
  console.log(`bystander's fetch: ${Math.round(quiet)} ms alone, ${Math.round(stalled)} ms during the flood (${(stalled / quiet).toFixed(1)}x)`);

  // The flood is still there, not done: none of its pins has an image, all of its fetches wait.
  for (const id of floodPins) expect((await flooder!.client.get<Pin>(`/api/pins/${id}`)).body.image).toBeNull();
  expect(await waitingFetches(flooder!.user.id)).toBeGreaterThan(0);
  // Connections the black hole has seen: far fewer than one per pin (a timed-out host is left alone).
  console.log(`connections to the black hole: ${held.length} for ${floodPins.length} pins`);
  expect(held.length).toBeLessThan(floodPins.length);
});

test('a user with FETCH_PENDING_PER_USER fetches waiting gets 429 for another remote pin, and can still pin uploads', async () => {
  const { client, user } = await signUpUser(server.url, 'capped');
  const cap = server.config.fetching.pendingPerUser;
  let refused: { status: number; body: ErrorBody; headers: Headers } | undefined;
  for (let i = 0; i < cap + 5 && !refused; i++) {
    const res = await client.post<ErrorBody>('/api/pins/', { title: `wait ${i}`, imageUrl: `${blackHoleUrl()}/wait-${i}.jpg` });
    if (res.status === 429) refused = res;
    else expect(res.status).toBe(201);
  }
  expect(refused?.body.message).toBe('Too many of your images are still being imported. Please wait a minute, then try again.');
  expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(await waitingFetches(user.id)).toBeGreaterThanOrEqual(cap - 1);
  const uploaded = await client.upload<{ image: { url: string } }>('/api/images/', { bytes: await jpeg(90, 60) });
  expect((await client.post('/api/pins/', { title: 'uploaded', imageUrl: uploaded.body.image.url })).status).toBe(201);
});
