// Live updates in the system Chromium (docs/realtime.md): what one user does shows up, without a
// reload, in another user's browser and in the same user's other tab. The real server on Postgres
// with the Redis session store, two browser contexts (users A and B) and two tabs of user A.
// Everything is asserted as a user sees it, with Playwright's waiting; the only extra look is at
// the socket's frames, to start a scenario once the watching tab is connected and watching (as a
// person would be, having had the page open for a moment).
import type { Page, WebSocketRoute } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PINS, PHOTO_URL } from '../support/demo.ts';
import { useBrowserServer } from '../support/use-browser-server.ts';
import { commitDelete, createPin, expectAccessible, expectGone, expectPath, expectVisible, newAccount, PAGE_WAIT_MS, signUp, type Tab } from './browser.ts';

const PAUSED = 'Live updates paused — reconnecting…';

/** What one socket connection did, read from its WebSocket frames (Engine.IO 4 / Socket.IO 4). */
class Connection {
  open = true;
  connected = false;
  readonly watched = new Set<number>();
  readonly #pending = new Map<string, { kind: string; ids: number[] }>();

  sent(frame: string): void {
    const m = /^42(\d+)\["pins:(watch|unwatch)",(\{.*\})\]$/.exec(frame);
    if (m?.[1] && m[2] && m[3]) this.#pending.set(m[1], { kind: m[2], ids: (JSON.parse(m[3]) as { pinIds: number[] }).pinIds });
  }

  received(frame: string): void {
    if (frame.startsWith('40')) this.connected = true;
    const m = /^43(\d+)\[(.*)\]$/.exec(frame);
    const request = m?.[1] ? this.#pending.get(m[1]) : undefined;
    if (!m?.[1] || !request) return;
    this.#pending.delete(m[1]);
    if (!(JSON.parse(m[2] ?? 'null') as { ok?: boolean } | null)?.ok) return;
    for (const id of request.ids) {
      if (request.kind === 'watch') this.watched.add(id);
      else this.watched.delete(id);
    }
  }

  closed(): void {
    this.open = false;
  }
}

/** The live connections of one page. */
class Wire {
  readonly connections: Connection[] = [];
  add(): Connection {
    const connection = new Connection();
    this.connections.push(connection);
    return connection;
  }
  connected(): boolean {
    return this.connections.some((c) => c.open && c.connected);
  }
  watching(pinId: number): boolean {
    return this.connections.some((c) => c.open && c.connected && c.watched.has(pinId));
  }
}

const wires = new WeakMap<Page, Wire>();

/** Follows the page's live socket frames. */
function followFrames(page: Page): Wire {
  const wire = new Wire();
  wires.set(page, wire);
  page.on('websocket', (ws) => {
    if (!ws.url().includes('/socket.io/')) return;
    const connection = wire.add();
    ws.on('framesent', ({ payload }) => connection.sent(String(payload)));
    ws.on('framereceived', ({ payload }) => connection.received(String(payload)));
    ws.on('close', () => connection.closed());
  });
  return wire;
}

/** For an extra page of a context: collects page errors as openTab does, and follows the frames. */
function track(page: Page, errors: string[]): Wire {
  page.setDefaultTimeout(PAGE_WAIT_MS);
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !/Failed to load resource/.test(msg.text())) errors.push(`console: ${msg.text()}`);
  });
  return followFrames(page);
}

function wireOf(page: Page): Wire {
  const wire = wires.get(page);
  if (!wire) throw new Error('page is not tracked');
  return wire;
}

// Assertions: the tab's socket gets connected (or watching the pin) within 10 s.
const expectConnected = (page: Page) => expect.poll(() => wireOf(page).connected(), { timeout: PAGE_WAIT_MS }).toBe(true);
const expectWatching = (page: Page, pinId: number) => expect.poll(() => wireOf(page).watching(pinId), { timeout: PAGE_WAIT_MS }).toBe(true);

let a1: Tab; // user A, tab 1
let a2: Page; // user A, tab 2 (same context: same session)
let b: Tab; // user B
const errors: string[] = [];
const accountA = newAccount('livea');
const accountB = newAccount('liveb');
const stamp = Date.now().toString(36);
const pinTitle = `Live harbour ${stamp}`;
const secondTitle = `Live meadow ${stamp}`;
let pinId = 0;
let secondPinId = 0;

const app = useBrowserServer({ seed: { pins: DEMO_PINS }, redis: true });

beforeAll(async () => {
  a1 = await app.openTab();
  b = await app.openTab();
  followFrames(a1.page); // openTab already collects their errors
  followFrames(b.page);
  await signUp(a1.page, accountA);
  await signUp(b.page, accountB);
  a2 = await a1.context.newPage();
  track(a2, errors);
  pinId = await createPin(a1.page, { title: pinTitle, imageUrl: PHOTO_URL });
  secondPinId = await createPin(a1.page, { title: secondTitle, imageUrl: PHOTO_URL });
});

describe('live updates in the browser', () => {
  it('A comments on a pin → B, who has that pin open, sees the comment without a reload', async () => {
    await b.page.goto(`/pins/${pinId}`);
    const bComments = b.page.getByRole('region', { name: /Comments/ });
    await expectVisible(bComments.getByText('No comments yet.'));
    await expectWatching(b.page, pinId);
    await b.page.evaluate(() => Reflect.set(window, '__sameDocument', true));

    await a1.page.goto(`/pins/${pinId}`);
    await a1.page.getByRole('button', { name: 'Add Comment' }).click();
    const dialog = a1.page.getByRole('dialog', { name: 'Add Comment' });
    await dialog.getByLabel('Comment').fill('Fresh from the harbour.');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expectGone(dialog);

    await expectVisible(bComments.getByText('Fresh from the harbour.'));
    await expectVisible(bComments.getByText(accountA.username, { exact: true }));
    expect(await b.page.evaluate(() => Reflect.get(window, '__sameDocument'))).toBe(true); // no reload
  });

  it("B favorites the pin → A's open pin page shows the count rise", async () => {
    // A1 has the pin open from the previous step.
    await expectVisible(a1.page.getByText('0 favorites', { exact: true }));
    await expectWatching(a1.page, pinId);
    await b.page.getByRole('button', { name: 'Add To Favorites' }).click();
    await expectVisible(b.page.getByText('1 favorite', { exact: true }));
    await expectVisible(a1.page.getByText('1 favorite', { exact: true }));
  });

  it("A deletes the pin → it vanishes from B's open home grid, and A's other tab on it says it was deleted", async () => {
    await b.page.goto('/');
    const bCard = b.page.locator(`article[data-pin-id="${pinId}"]`);
    await expectVisible(bCard);
    await expectConnected(b.page);
    await a2.goto(`/pins/${pinId}`);
    await expectVisible(a2.getByRole('heading', { name: pinTitle }));
    await expectConnected(a2);

    await a1.page.getByRole('button', { name: 'Delete This Pin' }).click();
    await a1.page.getByRole('alertdialog').getByRole('button', { name: 'Yes' }).click();
    await expectPath(a1.page, '/pins');
    await commitDelete(a1.page, 'Pin deleted');

    await expectGone(bCard);
    await expectVisible(b.page.locator(`article[data-pin-id="${secondPinId}"]`)); // the rest stays
    await expectVisible(a2.getByText('This pin has been deleted.', { exact: true }));
    await expectAccessible(a2, 'deleted pin notice');
    await a2.getByRole('link', { name: 'Back to home' }).click();
    await expectPath(a2, '/');

    // B's favorites no longer hold it either (dropped from the store with the pin).
    await b.page.getByRole('link', { name: 'Favorites' }).click();
    await expectVisible(b.page.getByText('No favorited pin yet!'));
  });

  it("a board created in A's tab 1 appears on A's tab 2's open boards page", async () => {
    await a2.goto('/boards');
    await expectVisible(a2.getByText('No boards found.'));
    await expectConnected(a2);

    await a1.page.goto('/boards/create');
    await a1.page.getByLabel('Board Name').fill(`Tide pools ${stamp}`);
    await a1.page.getByRole('button', { name: 'Create' }).click();
    await expectPath(a1.page, '/boards');

    const card = a2.getByRole('listitem').filter({ hasText: `Tide pools ${stamp}` });
    await expectVisible(card);
    expect(await card.locator('.board-card__count').textContent()).toBe('00');
  });

  it('after a dropped connection: a pill says live updates are paused; on reconnect what was missed shows up', async () => {
    const page = await b.context.newPage();
    const wire = track(page, errors);
    let blocked = false;
    let current: WebSocketRoute | undefined;
    // Every socket of this tab goes through here. While `blocked`, a connection is accepted and
    // dropped at once, like an instance that dies as you reach it: socket.io keeps retrying.
    await page.routeWebSocket(/\/socket\.io\//, (ws) => {
      if (blocked) {
        ws.send('0{"sid":"gone","upgrades":[],"pingInterval":25000,"pingTimeout":20000,"maxPayload":65536}');
        void ws.close();
        return;
      }
      const connection = wire.add();
      const upstream = ws.connectToServer();
      current = ws;
      ws.onMessage((message) => {
        connection.sent(String(message));
        upstream.send(message);
      });
      upstream.onMessage((message) => {
        connection.received(String(message));
        ws.send(message);
      });
      ws.onClose(() => {
        connection.closed();
        void upstream.close();
      });
      upstream.onClose(() => {
        connection.closed();
        void ws.close();
      });
    });
    await page.goto(`/pins/${secondPinId}`);
    const comments = page.getByRole('region', { name: /Comments/ });
    await expectVisible(comments.getByText('No comments yet.'));
    await expectWatching(page, secondPinId);
    const pill = page.getByRole('status').filter({ hasText: PAUSED });
    expect(await pill.count()).toBe(0);

    blocked = true;
    await current?.close();
    await expectVisible(pill);

    // Said while B's tab is away: its event cannot reach B.
    await a1.page.goto(`/pins/${secondPinId}`);
    await a1.page.getByRole('button', { name: 'Add Comment' }).click();
    const dialog = a1.page.getByRole('dialog', { name: 'Add Comment' });
    await dialog.getByLabel('Comment').fill('Said while you were away.');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expectGone(dialog);
    expect(await comments.getByText('Said while you were away.').count()).toBe(0);

    blocked = false; // socket.io's next attempt gets through; the tab refetches what it shows
    await expectVisible(comments.getByText('Said while you were away.'), 15_000);
    await expectGone(pill);
    await expectWatching(page, secondPinId);
    await page.close();
  });

  it('A logs out in tab 1 → tab 2 shows the signed-out state (session:ended)', async () => {
    await a2.goto('/boards');
    await expectVisible(a2.getByRole('heading', { name: 'Boards' }));
    await expectVisible(a2.getByRole('link', { name: 'Favorites' }));
    await expectConnected(a2);

    await a1.page.getByRole('button', { name: 'Profile menu' }).click();
    await a1.page.getByRole('button', { name: 'Log Out' }).click();
    await expectPath(a1.page, '/');
    await expectGone(a1.page.getByRole('link', { name: 'Favorites' }));

    // Tab 2 was not touched: it signs itself out and leaves the signed-in-only page.
    await expectGone(a2.getByRole('link', { name: 'Favorites' }));
    await expectPath(a2, '/login');
    await expectVisible(a2.getByRole('heading', { name: 'Log In' }));
    await a2.getByRole('button', { name: 'Profile menu' }).click();
    await expectVisible(a2.getByRole('link', { name: 'Log In', exact: true }));
    await expectConnected(a2); // and goes on live, as anonymous
  });

  it('raised no page errors', () => {
    expect([...a1.errors, ...b.errors, ...errors]).toEqual([]);
  });
});
