import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Import, ImportDetail } from '../../contract/imports.ts';
import { type ApiClient, signUpUser } from '../support/client.ts';
import { basePictures, type ImageHost, startImageHost } from '../support/import-fixtures.ts';
import { useTestServer } from '../support/use-test-server.ts';

// Bulk imports are fair to everybody (docs/import-export.md): a host that trickles its answer (its
// headers at once, then a byte every 4.5 s, until the fetch's 15 s deadline) used to hold a worker
// for a whole batch of 24 items, 4 at a time: ~90 s a batch, for each of two users importing from
// it, while a third user's 3-item import waited behind them. Now an item whose host just timed out
// waits without a worker, and no item of a batch starts after 15 s, so the worker goes back to the
// queue, where the users' imports take turns. Both times are printed; the check is what must hold
// whatever the machine's speed: the bystander's import is done while the flood's are still waiting.

const EVENTUALLY_MS = 75_000;
const FLOOD_ITEMS = 24;

let trickle: Server;
const trickling: Socket[] = [];
let good: ImageHost;

beforeAll(async () => {
  trickle = createServer((req, res) => {
    trickling.push(req.socket);
    res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': '100000' });
    res.write(Buffer.from([0xff, 0xd8]));
    const drip = setInterval(() => res.write(Buffer.from([0])), 4_500);
    req.socket.on('close', () => clearInterval(drip));
  });
  await new Promise<void>((resolve) => trickle.listen(0, '127.0.0.1', resolve));
  good = await startImageHost(await basePictures(3, 320, 240));
}, 60_000);
afterAll(async () => {
  for (const socket of trickling) socket.destroy();
  await new Promise<void>((resolve) => trickle.close(() => resolve()));
  await good?.close();
});
const server = useTestServer(() => ({
  env: {
    FETCH_ALLOW_CIDRS: '127.0.0.1/32',
    FETCH_ALLOW_PORTS: `${(trickle.address() as AddressInfo).port},${good.port}`,
    IMAGE_BUDGET_PER_USER: '100000',
  },
}));

const bookmarks = (urls: string[]) =>
  Buffer.from(`<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n${urls.map((url, i) => `<DT><A HREF="https://example.com/${i}" IMAGE="${url}">Item ${i}</A>`).join('\n')}\n</DL><p>\n`);

async function postImport(client: ApiClient, urls: string[]): Promise<Import> {
  const answer = await client.upload<{ import: Import }>('/api/imports', { bytes: bookmarks(urls), name: 'bookmarks.html', type: 'text/html' });
  expect(answer.status, JSON.stringify(answer.body)).toBe(202);
  return answer.body.import;
}

async function timeImport(client: ApiClient, urls: string[]): Promise<number> {
  const started = performance.now();
  const { id } = await postImport(client, urls);
  for (;;) {
    const detail = (await client.get<ImportDetail>(`/api/imports/${id}`)).body;
    if (detail.import.status === 'done') {
      expect(detail.import).toMatchObject({ done: urls.length, failed: 0 });
      return performance.now() - started;
    }
    if (performance.now() - started > EVENTUALLY_MS) throw new Error(`the import was not done within ${EVENTUALLY_MS} ms: ${JSON.stringify(detail.import)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test("another user's 3-item import is done while two users' imports from a trickling host still wait", { timeout: 240_000 }, async () => {
  const [first, second, bystander] = await Promise.all(['trickle-a', 'trickle-b', 'bystander'].map((name) => signUpUser(server.url, name)));
  const goodUrls = (from: number) => [0, 1, 2].map((n) => `${good.url}/img/${from + n}.jpg`);
  const quiet = await timeImport(bystander!.client, goodUrls(0));

  const trickleUrl = (user: string, n: number) => `http://127.0.0.1:${(trickle.address() as AddressInfo).port}/${user}/${n}.jpg`;
  const floods = await Promise.all(
    [first!, second!].map((user, u) =>
      postImport(
        user.client,
        Array.from({ length: FLOOD_ITEMS }, (_, n) => trickleUrl(`u${u}`, n)),
      ),
    ),
  );
  // Both floods hold workers: the host has both users' connections.
  const started = performance.now();
  while (!(trickling.some((s) => s.remotePort) && new Set(trickling.map((s) => s.remotePort)).size >= 2)) {
    if (performance.now() - started > EVENTUALLY_MS) throw new Error('the floods did not reach the trickling host');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const during = await timeImport(bystander!.client, goodUrls(3));
  console.log(`bystander's 3-item import: ${Math.round(quiet)} ms alone, ${Math.round(during)} ms during two floods from a trickling host (${(during / quiet).toFixed(1)}x)`);

  // The floods are still there: neither is done, and their items were not all tried (a host that
  // timed out is left alone).
  for (const [index, flood] of floods.entries()) {
    const detail = (await [first!, second!][index]!.client.get<ImportDetail>(`/api/imports/${flood.id}`)).body;
    expect(detail.import.status).toBe('running');
    expect(detail.import.done + detail.import.failed).toBeLessThan(FLOOD_ITEMS);
  }
  console.log(`connections to the trickling host: ${trickling.length} for ${2 * FLOOD_ITEMS} items`);
  expect(trickling.length).toBeLessThan(2 * FLOOD_ITEMS);
});
