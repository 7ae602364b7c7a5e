import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Pin, PinList } from '../../contract/pins.ts';
import type { UserProfile } from '../../contract/users.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { jpeg } from '../support/image-fixtures.ts';
import { useTestServer } from '../support/use-test-server.ts';
import { eventually } from '../support/eventually.ts';

// A public pin whose image address the server refuses to fetch (a private network's, up front or
// at a redirect) used to be a grey "Image unavailable" card on everybody's home page and in search.
// It now stays with its owner (and its boards' members) until it has a picture, then is public by
// itself; its owner's choice of who sees it is kept throughout (docs/who-sees-what.md).

let origin: Server;
let originUrl: string;
let photo: Buffer;

beforeAll(async () => {
  photo = await jpeg(400, 300);
  origin = createServer((req, res) => {
    if (req.url === '/photo.jpg') res.writeHead(200, { 'content-type': 'image/jpeg' }).end(photo);
    // A public-looking address that sends the fetch into a private network: refused at the redirect.
    else if (req.url === '/inside.jpg') res.writeHead(302, { location: 'http://10.20.30.40/inside.jpg' }).end();
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => origin.close(() => resolve())));
const server = useTestServer(() => ({ env: { FETCH_ALLOW_CIDRS: '127.0.0.1/32', FETCH_ALLOW_PORTS: new URL(originUrl).port } }));

/** What a visitor who is not the owner can find of the pin: its page, the home feed, the owner's list, search, the owner's count. */
async function seenByOthers(pin: Pin, owner: { id: number; username: string }): Promise<{ page: number; home: boolean; profile: boolean; search: boolean; count: number }> {
  const anonymous = new ApiClient(server.url);
  const home = (await anonymous.get<PinList>('/api/pins/?limit=100')).body.pins;
  const profile = (await anonymous.get<PinList>(`/api/pins/?userId=${owner.id}&limit=100`)).body.pins;
  const search = (await anonymous.get<PinList>(`/api/search?q=${encodeURIComponent(pin.title)}`)).body.pins;
  const user = (await anonymous.get<UserProfile>(`/api/users/lookup?username=${owner.username}`)).body;
  return {
    page: (await anonymous.get(`/api/pins/${pin.id}`)).status,
    home: home.some((p) => p.id === pin.id),
    profile: profile.some((p) => p.id === pin.id),
    search: search.some((p) => p.id === pin.id),
    count: user.pin_count,
  };
}

/** What others find settles once the caches have heard the change (at once, but after the answer): waits for it. */
async function expectSeen(pin: Pin, owner: { id: number; username: string }, expected: Awaited<ReturnType<typeof seenByOthers>>): Promise<void> {
  const seen = await eventually(
    () => seenByOthers(pin, owner),
    (now) => JSON.stringify(now) === JSON.stringify(expected),
  ).catch(async () => seenByOthers(pin, owner));
  expect(seen).toEqual(expected);
}

test("a pin whose address the server refuses is its owner's alone until it has a picture, then public by itself", async () => {
  const { client: owner, user } = await signUpUser(server.url, 'refused');
  const created = await owner.post<Pin>('/api/pins/', { title: 'Lighthouse refusedword', imageUrl: 'http://10.1.2.3/lighthouse.jpg', description: '' });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({ image: null, image_url: '', visibility: 'public' });
  await expectSeen(created.body, user, { page: 404, home: false, profile: false, search: false, count: 0 });
  // Its owner still has it, on their own pages.
  expect((await owner.get<PinList>(`/api/pins/?userId=${user.id}`)).body.pins.map((p) => p.id)).toEqual([created.body.id]);

  const uploaded = await owner.upload<{ image: { url: string } }>('/api/images/', { bytes: photo, name: 'lighthouse.jpg' });
  const mended = await owner.put<Pin>(`/api/pins/${created.body.id}`, { title: created.body.title, description: '', imageUrl: uploaded.body.image.url });
  expect(mended.body).toMatchObject({ visibility: 'public', image: { width: 400, height: 300 } });
  await expectSeen(mended.body, user, { page: 200, home: true, profile: true, search: true, count: 1 });
});

test('a public pin whose address is refused at a redirect leaves the public pages, told as deleted; a picture that arrives later brings it back as new', async () => {
  const { client: owner, user } = await signUpUser(server.url, 'redirected');
  const events: string[] = [];
  const off = server.server.events.on('change', ({ event, data, audience }) => {
    // Everyone (the feed), everyone but the viewers (a pin gone private), or the viewers.
    const to = audience === 'feed' ? 'feed' : 'allBut' in audience ? 'all but viewers' : 'viewers';
    if (event === 'pin:deleted') events.push(`deleted ${(data as { pinId: number }).pinId} ${to}`);
    if (event === 'pin:created') events.push(`created ${(data as { pin: Pin }).pin.id} ${to}`);
  });
  try {
    const created = await owner.post<Pin>('/api/pins/', { title: 'Harbour insideword', imageUrl: `${originUrl}/inside.jpg`, description: '' });
    const id = created.body.id;
    await expectSeen(created.body, user, { page: 404, home: false, profile: false, search: false, count: 0 });
    expect(events).toEqual([`created ${id} feed`, `deleted ${id} all but viewers`, `created ${id} viewers`]);
    expect((await owner.get<Pin>(`/api/pins/${id}`)).body).toMatchObject({ visibility: 'public', image: null, image_url: '' });

    // Its owner mends it with an address that works: once the picture is in, everybody has it.
    await owner.put(`/api/pins/${id}`, { title: created.body.title, description: '', imageUrl: `${originUrl}/photo.jpg` });
    await expectSeen(created.body, user, { page: 200, home: true, profile: true, search: true, count: 1 });
    expect(events.at(-1)).toBe(`created ${id} feed`);
  } finally {
    off();
  }
});

test('a waiting pin its owner makes private stays private when its picture arrives', async () => {
  const { client: owner, user } = await signUpUser(server.url, 'keepsprivate');
  const created = await owner.post<Pin>('/api/pins/', { title: 'Quiet', imageUrl: 'http://192.168.7.7/q.jpg', description: '' });
  const hidden = await owner.put<Pin>(`/api/pins/${created.body.id}`, { visibility: 'private' });
  expect(hidden.body.visibility).toBe('private');
  const uploaded = await owner.upload<{ image: { url: string } }>('/api/images/', { bytes: await jpeg(200, 100), name: 'q.jpg' });
  const mended = await owner.put<Pin>(`/api/pins/${created.body.id}`, { title: 'Quiet', description: '', imageUrl: uploaded.body.image.url });
  expect(mended.body).toMatchObject({ visibility: 'private', image: { width: 200 } });
  expect((await seenByOthers(mended.body, user)).page).toBe(404);
  // And asked to be public while it still has no picture, a pin waits for one.
  const other = await owner.post<Pin>('/api/pins/', { title: 'Later', imageUrl: 'http://10.9.9.9/l.jpg', visibility: 'private', description: '' });
  expect((await owner.put<Pin>(`/api/pins/${other.body.id}`, { visibility: 'public' })).body.visibility).toBe('public');
  expect((await seenByOthers(other.body, user)).page).toBe(404);
});

test('a pin whose picture is merely missing (a 404) stays public, its owner told why', async () => {
  const { client: owner, user } = await signUpUser(server.url, 'missing');
  const created = await owner.post<Pin>('/api/pins/', { title: 'Gone missing', imageUrl: `${originUrl}/gone.jpg`, description: '' });
  await eventually(
    async () => (await owner.get<{ status: string }>(`/api/pins/${created.body.id}/image-status`)).body.status,
    (s) => s === 'failed',
  );
  expect((await seenByOthers(created.body, user)).page).toBe(200);
});

test('a waiting pin given an address whose import then fails waits on, through later edits', async () => {
  const { client: owner, user } = await signUpUser(server.url, 'waitson');
  const created = await owner.post<Pin>('/api/pins/', { title: 'Still waiting', imageUrl: 'http://10.3.3.3/w.jpg', description: '' });
  await owner.put(`/api/pins/${created.body.id}`, { title: 'Still waiting', description: '', imageUrl: `${originUrl}/gone.jpg` });
  await eventually(
    async () => (await owner.get<{ status: string }>(`/api/pins/${created.body.id}/image-status`)).body.status,
    (s) => s === 'failed',
  );
  const edited = await owner.put<Pin>(`/api/pins/${created.body.id}`, { title: 'Still waiting, renamed', description: '' });
  expect(edited.body).toMatchObject({ visibility: 'public', image: null });
  expect((await seenByOthers(edited.body, user)).page).toBe(404);
});
