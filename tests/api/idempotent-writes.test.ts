import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import type { BoardPin } from '../../contract/boards.ts';
import type { ErrorBody } from '../../contract/errors.ts';
import type { ChangeData, ChangeEventName } from '../../contract/events.ts';
import type { Favorite } from '../../contract/favorites.ts';
import type { ApiClient, ApiResponse } from '../support/client.ts';
import { addToBoard, newBoard, newPin, signUpUser } from '../support/factories.ts';
import { useTestServer } from '../support/use-test-server.ts';

// The writes the web client's outbox queues (docs/outbox.md) honour Idempotency-Key like the creates
// (docs/api.md, "Idempotent writes"): a repeat with the same key gets the first answer, status and
// body, with Idempotent-Replayed: true, and changes nothing; the same key with another request is
// 422; without a key each route behaves as before.

const REUSED = 'This Idempotency-Key was already used for a different request.';

const server = useTestServer();
const db = () => server.server.database.db;

type Method = 'POST' | 'DELETE';

function send<T>(client: ApiClient, method: Method, path: string, json?: unknown, key?: string): Promise<ApiResponse<T>> {
  return client.request<T>(method, path, { ...(json === undefined ? {} : { json }), ...(key === undefined ? {} : { headers: { 'Idempotency-Key': key } }) });
}

/** Counts the changes named `event` that the in-process bus publishes, from now on. */
function recordEvents<E extends ChangeEventName>(event: E): { payloads: Array<ChangeData<E>>; stop(): void } {
  const payloads: Array<ChangeData<E>> = [];
  const stop = server.server.events.onChange(event, (payload) => payloads.push(payload));
  return { payloads, stop };
}

async function likesOf(pinId: number): Promise<number> {
  return (await db().selectFrom('pins').select('likes_count').where('id', '=', pinId).executeTakeFirstOrThrow()).likes_count;
}

async function favoriteRows(userId: number, pinId: number): Promise<number> {
  return (await db().selectFrom('favorites').select('id').where('user_id', '=', userId).where('pin_id', '=', pinId).execute()).length;
}

async function boardPinRows(boardId: number, pinId: number): Promise<number> {
  return (await db().selectFrom('board_pins').select('pin_id').where('board_id', '=', boardId).where('pin_id', '=', pinId).execute()).length;
}

async function pinExists(pinId: number): Promise<boolean> {
  return (await db().selectFrom('pins').select('id').where('id', '=', pinId).executeTakeFirst()) !== undefined;
}

async function boardExists(boardId: number): Promise<boolean> {
  return (await db().selectFrom('boards').select('id').where('id', '=', boardId).executeTakeFirst()) !== undefined;
}

/** The first answer came as it always did; the repeat is that same answer, marked replayed. */
function expectReplay(first: ApiResponse, again: ApiResponse, status: number): void {
  expect(first.status, JSON.stringify(first.body)).toBe(status);
  expect(first.headers.get('idempotent-replayed')).toBeNull();
  expect(again.status, JSON.stringify(again.body)).toBe(status);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(JSON.stringify(again.body)).toBe(JSON.stringify(first.body));
}

function expectReused(response: ApiResponse): void {
  expect(response.status, JSON.stringify(response.body)).toBe(422);
  expect((response.body as ErrorBody).message).toBe(REUSED);
}

describe('favorites', () => {
  test('POST /api/favorites/: the repeat answers 201 with the same favorite, the pin is liked once', async () => {
    const { client: owner } = await signUpUser(server.url, 'iwfavowner');
    const pin = await newPin(owner, 'Liked once');
    const { client, user } = await signUpUser(server.url, 'iwfav');
    const key = randomUUID();
    const events = recordEvents('favorite:added');
    try {
      const first = await send<Favorite>(client, 'POST', '/api/favorites/', { pin_id: pin.id }, key);
      const again = await send<Favorite>(client, 'POST', '/api/favorites/', { pin_id: pin.id }, key);
      // Not "Already favorited": the first call made it.
      expectReplay(first, again, 201);
      expect(again.body).toMatchObject({ pin_id: pin.id, likes_count: 1 });
      expect(await likesOf(pin.id)).toBe(1);
      expect(await favoriteRows(user.id, pin.id)).toBe(1);
      expect(events.payloads.filter((p) => p.favorite.pin_id === pin.id)).toHaveLength(1);
    } finally {
      events.stop();
    }
  });

  test('POST /api/favorites/: a favorite that already existed stores and replays its 200 "Already favorited"', async () => {
    const { client: owner } = await signUpUser(server.url, 'iwfav200owner');
    const pin = await newPin(owner, 'Already liked');
    const { client } = await signUpUser(server.url, 'iwfav200');
    expect((await send(client, 'POST', '/api/favorites/', { pin_id: pin.id })).status).toBe(201);
    const key = randomUUID();
    const first = await send(client, 'POST', '/api/favorites/', { pin_id: pin.id }, key);
    expectReplay(first, await send(client, 'POST', '/api/favorites/', { pin_id: pin.id }, key), 200);
    expect(first.body).toEqual({ message: 'Already favorited' });
    expect(await likesOf(pin.id)).toBe(1);
  });

  test('DELETE /api/favorites/{id}: the repeat answers 200 like the first, not 404; the count drops once', async () => {
    const { client: owner } = await signUpUser(server.url, 'iwunfavowner');
    const pin = await newPin(owner, 'Unliked once');
    const { client, user } = await signUpUser(server.url, 'iwunfav');
    const { client: other } = await signUpUser(server.url, 'iwunfavother');
    expect((await send(other, 'POST', '/api/favorites/', { pin_id: pin.id })).status).toBe(201);
    const favorite = (await send<Favorite>(client, 'POST', '/api/favorites/', { pin_id: pin.id })).body;
    expect(await likesOf(pin.id)).toBe(2);
    const key = randomUUID();
    const events = recordEvents('favorite:removed');
    try {
      const first = await send(client, 'DELETE', `/api/favorites/${favorite.id}`, undefined, key);
      const again = await send(client, 'DELETE', `/api/favorites/${favorite.id}`, undefined, key);
      expectReplay(first, again, 200);
      expect(first.body).toMatchObject({ id: favorite.id, pin_id: pin.id, likes_count: 1 });
      expect(await likesOf(pin.id)).toBe(1);
      expect(await favoriteRows(user.id, pin.id)).toBe(0);
      expect(events.payloads).toHaveLength(1);
    } finally {
      events.stop();
    }
  });
});

describe('boards', () => {
  test('POST /api/boards/{id}/pins: the repeat answers 201 with the same pin, one board_pins row, pin_count 1', async () => {
    const { client } = await signUpUser(server.url, 'iwsave');
    const pin = await newPin(client, 'Saved once');
    const board = await newBoard(client, 'Once');
    const key = randomUUID();
    const events = recordEvents('board:pin-added');
    try {
      const first = await send<BoardPin>(client, 'POST', `/api/boards/${board.id}/pins`, { pin_id: pin.id }, key);
      const again = await send<BoardPin>(client, 'POST', `/api/boards/${board.id}/pins`, { pin_id: pin.id }, key);
      expectReplay(first, again, 201);
      expect(await boardPinRows(board.id, pin.id)).toBe(1);
      expect((await db().selectFrom('boards').select('pin_count').where('id', '=', board.id).executeTakeFirstOrThrow()).pin_count).toBe(1);
      expect(events.payloads).toHaveLength(1);
    } finally {
      events.stop();
    }
  });

  test('DELETE /api/boards/{id}/pins/{pinId}: the repeat answers 200, not 404; the pin was taken off once and a later save stays', async () => {
    const { client } = await signUpUser(server.url, 'iwtakeoff');
    const pin = await newPin(client, 'Taken off');
    const board = await newBoard(client, 'Off');
    await addToBoard(client, board.id, pin.id);
    const key = randomUUID();
    const first = await send(client, 'DELETE', `/api/boards/${board.id}/pins/${pin.id}`, undefined, key);
    // Saved again in between: a replayed removal must not take it off a second time.
    await addToBoard(client, board.id, pin.id);
    const again = await send(client, 'DELETE', `/api/boards/${board.id}/pins/${pin.id}`, undefined, key);
    expectReplay(first, again, 200);
    expect(first.body).toEqual({ message: 'Pin removed from board', board_id: board.id, pin_id: pin.id });
    expect(await boardPinRows(board.id, pin.id)).toBe(1);
  });

  test('DELETE /api/boards/{id}: the repeat answers 200 like the first, not 404; one board:deleted', async () => {
    const { client } = await signUpUser(server.url, 'iwboarddel');
    const board = await newBoard(client, 'Gone once');
    const key = randomUUID();
    const events = recordEvents('board:deleted');
    try {
      const first = await send(client, 'DELETE', `/api/boards/${board.id}`, undefined, key);
      const again = await send(client, 'DELETE', `/api/boards/${board.id}`, undefined, key);
      expectReplay(first, again, 200);
      expect(first.body).toEqual({ message: 'Board deleted', id: board.id });
      expect(await boardExists(board.id)).toBe(false);
      expect(events.payloads.filter((p) => p.boardId === board.id)).toHaveLength(1);
    } finally {
      events.stop();
    }
  });
});

test('DELETE /api/pins/{id}: the repeat answers 200 like the first, not 404; the pin is deleted once, one pin:deleted', async () => {
  const { client } = await signUpUser(server.url, 'iwpindel');
  const pin = await newPin(client, 'Deleted once');
  const key = randomUUID();
  const events = recordEvents('pin:deleted');
  try {
    const first = await send(client, 'DELETE', `/api/pins/${pin.id}`, undefined, key);
    const again = await send(client, 'DELETE', `/api/pins/${pin.id}`, undefined, key);
    expectReplay(first, again, 200);
    expect(first.body).toEqual({ message: 'Pin deleted', id: pin.id });
    expect(await pinExists(pin.id)).toBe(false);
    expect(events.payloads.filter((p) => p.pinId === pin.id)).toHaveLength(1);
  } finally {
    events.stop();
  }
});

test('the same key with a different request is 422 on every queued write, and changes nothing', async () => {
  const { client: owner } = await signUpUser(server.url, 'iw422owner');
  const [a, b] = [await newPin(owner, 'A'), await newPin(owner, 'B')];
  const { client, user } = await signUpUser(server.url, 'iw422');
  const mine = await newPin(client, 'Mine');
  const board = await newBoard(client, 'Used');

  const favoriteKey = randomUUID();
  const favorite = await send<Favorite>(client, 'POST', '/api/favorites/', { pin_id: a.id }, favoriteKey);
  expect(favorite.status).toBe(201);
  expectReused(await send(client, 'POST', '/api/favorites/', { pin_id: b.id }, favoriteKey));
  expectReused(await send(client, 'DELETE', `/api/favorites/${favorite.body.id}`, undefined, favoriteKey));
  expect(await favoriteRows(user.id, b.id)).toBe(0);
  expect(await favoriteRows(user.id, a.id)).toBe(1);

  const saveKey = randomUUID();
  expect((await send(client, 'POST', `/api/boards/${board.id}/pins`, { pin_id: a.id }, saveKey)).status).toBe(201);
  expectReused(await send(client, 'POST', `/api/boards/${board.id}/pins`, { pin_id: b.id }, saveKey));
  expectReused(await send(client, 'DELETE', `/api/boards/${board.id}/pins/${a.id}`, undefined, saveKey));
  expectReused(await send(client, 'DELETE', `/api/pins/${mine.id}`, undefined, saveKey));
  expectReused(await send(client, 'DELETE', `/api/boards/${board.id}`, undefined, saveKey));
  expect(await boardPinRows(board.id, b.id)).toBe(0);
  expect(await boardPinRows(board.id, a.id)).toBe(1);
  expect(await pinExists(mine.id)).toBe(true);
  expect(await boardExists(board.id)).toBe(true);

  const deleteKey = randomUUID();
  const other = await newPin(client, 'Other');
  expect((await send(client, 'DELETE', `/api/pins/${other.id}`, undefined, deleteKey)).status).toBe(200);
  expectReused(await send(client, 'DELETE', `/api/pins/${mine.id}`, undefined, deleteKey));
  expect(await pinExists(mine.id)).toBe(true);
});

test('without a key each route behaves as before: a second favorite is "Already favorited", a second DELETE is 404', async () => {
  const { client: owner } = await signUpUser(server.url, 'iwnokeyowner');
  const pin = await newPin(owner, 'No key');
  const { client, user } = await signUpUser(server.url, 'iwnokey');
  const mine = await newPin(client, 'Mine, no key');
  const board = await newBoard(client, 'No key');

  const favorite = await send<Favorite>(client, 'POST', '/api/favorites/', { pin_id: pin.id });
  expect(favorite.status).toBe(201);
  const twice = await send(client, 'POST', '/api/favorites/', { pin_id: pin.id });
  expect([twice.status, twice.body, twice.headers.get('idempotent-replayed')]).toEqual([200, { message: 'Already favorited' }, null]);
  expect((await send(client, 'DELETE', `/api/favorites/${favorite.body.id}`)).status).toBe(200);
  expect((await send(client, 'DELETE', `/api/favorites/${favorite.body.id}`)).status).toBe(404);
  expect(await likesOf(pin.id)).toBe(0);

  expect((await send(client, 'POST', `/api/boards/${board.id}/pins`, { pin_id: mine.id })).status).toBe(201);
  expect((await send(client, 'POST', `/api/boards/${board.id}/pins`, { pin_id: mine.id })).status).toBe(200);
  expect((await send(client, 'DELETE', `/api/boards/${board.id}/pins/${mine.id}`)).status).toBe(200);
  expect((await send(client, 'DELETE', `/api/boards/${board.id}/pins/${mine.id}`)).status).toBe(404);

  expect((await send(client, 'DELETE', `/api/pins/${mine.id}`)).status).toBe(200);
  expect((await send(client, 'DELETE', `/api/pins/${mine.id}`)).status).toBe(404);
  expect((await send(client, 'DELETE', `/api/boards/${board.id}`)).status).toBe(200);
  expect((await send(client, 'DELETE', `/api/boards/${board.id}`)).status).toBe(404);
  expect(await db().selectFrom('idempotency_keys').select('key').where('user_id', '=', user.id).execute()).toEqual([]);
});

test('a refused write is not remembered: the same key runs again once the refusal is gone', async () => {
  const { client: owner } = await signUpUser(server.url, 'iwrefusedowner');
  const pin = await newPin(owner, 'Refused then fine');
  const { client } = await signUpUser(server.url, 'iwrefused');
  const board = await newBoard(client, 'Later');
  const key = randomUUID();
  // Someone else's pin cannot be deleted: 403 each time, nothing stored.
  expect((await send(client, 'DELETE', `/api/pins/${pin.id}`, undefined, key)).status).toBe(403);
  expect((await send(client, 'DELETE', `/api/pins/${pin.id}`, undefined, key)).status).toBe(403);
  expect(await pinExists(pin.id)).toBe(true);
  const removeKey = randomUUID();
  expect((await send(client, 'DELETE', `/api/boards/${board.id}/pins/${pin.id}`, undefined, removeKey)).status).toBe(404);
  await addToBoard(client, board.id, pin.id);
  const removed = await send(client, 'DELETE', `/api/boards/${board.id}/pins/${pin.id}`, undefined, removeKey);
  expect([removed.status, removed.headers.get('idempotent-replayed')]).toEqual([200, null]);
  expect(await boardPinRows(board.id, pin.id)).toBe(0);
});
