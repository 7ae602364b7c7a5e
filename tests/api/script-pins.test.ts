import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Import, ImportDetail } from '../../contract/imports.ts';
import type { Pin } from '../../contract/pins.ts';
import { type ApiClient, signUpUser } from '../support/client.ts';
import { basePictures, type ImageHost, startImageHost } from '../support/import-fixtures.ts';
import { useTestServer } from '../support/use-test-server.ts';

// A script that moves someone in creates pins by image URL as fast as it can. It used to be refused
// (429) at its 21st pin, once 20 imports waited. Now the pin is accepted and its picture queued
// (at most FETCH_PENDING_PER_USER waiting), and fairness comes from each user's imports running one
// at a time: another user's bulk import goes on beside the flood. Its time alone and during the flood
// are printed; what must hold whatever the machine's speed: every request is answered 201, every
// picture arrives, and the other user's import is done while the flood's pictures are still coming
// in. The flood is 15 times the old refusal point, and exactly the user's waiting allowance, so the
// last pin is accepted at the limit (a 1,000-pin flood at the default allowance took a minute here).

const FLOOD = 300;
const IN_FLIGHT = 8;
const BYSTANDER_ITEMS = 30;
const EVENTUALLY_MS = 480_000;

let host: ImageHost;
beforeAll(async () => {
  host = await startImageHost(await basePictures(4, 320, 240));
}, 60_000);
afterAll(() => host?.close());

// What a user may have waiting is the flood: its last pin is accepted at the limit.
const server = useTestServer(() => ({ env: { FETCH_ALLOW_CIDRS: '127.0.0.1/32', FETCH_ALLOW_PORTS: host.port, FETCH_PENDING_PER_USER: String(FLOOD) } }));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const bookmarks = (from: number) =>
  Buffer.from(
    `<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n${Array.from({ length: BYSTANDER_ITEMS }, (_, i) => `<DT><A HREF="https://example.com/${from + i}" IMAGE="${host.url}/img/${from + i}.jpg">Item ${i}</A>`).join('\n')}\n</DL><p>\n`,
  );

/** Imports a bookmark file of pictures numbered from `from`; answers its time and its end. */
async function timedImport(client: ApiClient, from: number): Promise<{ ms: number; detail: ImportDetail }> {
  const started = performance.now();
  const posted = await client.upload<{ import: Import }>('/api/imports', { bytes: bookmarks(from), name: 'bookmarks.html', type: 'text/html' });
  expect(posted.status, JSON.stringify(posted.body)).toBe(202);
  for (;;) {
    const detail = (await client.get<ImportDetail>(`/api/imports/${posted.body.import.id}`)).body;
    if (detail.import.status === 'done' || detail.import.status === 'failed') return { ms: performance.now() - started, detail };
    if (performance.now() - started > EVENTUALLY_MS) throw new Error(`the import was not done within ${EVENTUALLY_MS} ms`);
    await sleep(100);
  }
}

/** How many of the user's pins have their stored picture. */
async function pictured(userId: number): Promise<number> {
  const row = await server.server.database.db
    .selectFrom('pins')
    .select((eb) => eb.fn.count<string>('image_sha256').as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

test(`${FLOOD} pins by URL from one script are all accepted and all get their picture, while another user's import goes on beside them`, { timeout: EVENTUALLY_MS * 2 }, async () => {
  const [script, bystander] = await Promise.all([signUpUser(server.url, 'script'), signUpUser(server.url, 'bystander')]);
  const alone = await timedImport(bystander!.client, 100_000);
  expect(alone.detail.import.done).toBe(BYSTANDER_ITEMS);

  const started = performance.now();
  const statuses = new Map<number, number>();
  let next = 0;
  const flood = Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < FLOOD) {
        const n = next++;
        const res = await script!.client.post<Pin>('/api/pins/', { title: `Scripted ${n}`, imageUrl: `${host.url}/img/${n}.jpg` });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    }),
  );
  // The other user's import starts while the script is still creating pins.
  while (next < IN_FLIGHT * 4) await sleep(10);
  const beside = await timedImport(bystander!.client, 200_000);
  const floodWaiting = FLOOD - (await pictured(script!.user.id));
  await flood;
  const accepted = performance.now() - started;
  expect(Object.fromEntries(statuses)).toEqual({ 201: FLOOD });

  while ((await pictured(script!.user.id)) < FLOOD) {
    if (performance.now() - started > EVENTUALLY_MS) throw new Error(`${await pictured(script!.user.id)} of ${FLOOD} pictures arrived within ${EVENTUALLY_MS} ms`);
    await sleep(250);
  }
  const allPictured = performance.now() - started;
  console.log(
    `${FLOOD} pins by URL: all 201 in ${(accepted / 1000).toFixed(1)} s, every picture stored after ${(allPictured / 1000).toFixed(1)} s; ` +
      `the other user's ${BYSTANDER_ITEMS}-item import: ${(alone.ms / 1000).toFixed(1)} s alone, ${(beside.ms / 1000).toFixed(1)} s beside the flood ` +
      `(${(beside.ms / alone.ms).toFixed(2)}×), done with ${floodWaiting} of the flood's pictures still to come`,
  );
  expect(beside.detail.import.done).toBe(BYSTANDER_ITEMS);
  expect(beside.detail.import.failed).toBe(0);
  expect(floodWaiting).toBeGreaterThan(0);
});
