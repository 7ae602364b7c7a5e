import { describe, expect, test } from 'vitest';
import type { Board, BoardList, BoardPin } from '../../contract/boards.ts';
import type { ErrorBody } from '../../contract/errors.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { newPin } from '../support/factories.ts';
import { useTestServer } from '../support/use-test-server.ts';

const server = useTestServer();

describe('boards', () => {
  test('create → 201 empty board; list has it; get returns it', async () => {
    const { client, user } = await signUpUser(server.url);
    const res = await client.post<Board>('/api/boards/', { name: '  Kitchen  ' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: 'Kitchen',
      user_id: user.id,
      pin_count: 0,
      pins: [],
      role: 'owner',
      visibility: 'private',
      members: [{ id: user.id, username: user.username }],
      member_count: 1,
    });
    expect((await client.get<BoardList>('/api/boards/')).body).toEqual({ boards: [res.body], nextCursor: null });
    expect((await client.get<Board>(`/api/boards/${res.body.id}`)).body).toEqual({ ...res.body, nextCursor: null });
  });

  test('blank name → "Board name cannot be empty."; too long → 400; nothing stored', async () => {
    const { client } = await signUpUser(server.url);
    const blank = await client.post<ErrorBody>('/api/boards/', { name: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body.errors).toEqual(['Board name cannot be empty.']);
    expect(blank.body.fields).toEqual({ name: 'Board name cannot be empty.' });
    expect((await client.post('/api/boards/', { name: 'x'.repeat(101) })).status).toBe(400);
    expect((await client.get<BoardList>('/api/boards/')).body.boards).toEqual([]);
  });

  test("add pins (any user's pin), most recently added first, idempotent re-add, remove, counts", async () => {
    const { client } = await signUpUser(server.url);
    const someone = await signUpUser(server.url);
    const first = await newPin(someone.client, { title: 'first', imageUrl: 'https://a.test/first.png' });
    const second = await newPin(client, 'second');
    const board = (await client.post<Board>('/api/boards/', { name: 'Mix' })).body;
    const added = await client.post<BoardPin>(`/api/boards/${board.id}/pins`, { pin_id: first.id });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ id: first.id, title: 'first', image_url: 'https://a.test/first.png', image: null, visibility: 'public' });
    await client.post(`/api/boards/${board.id}/pins`, { pin_id: second.id });
    const again = await client.post<BoardPin>(`/api/boards/${board.id}/pins`, { pin_id: first.id });
    expect(again.status).toBe(200);
    const full = (await client.get<Board>(`/api/boards/${board.id}`)).body;
    expect(full.pins.map((p) => p.id)).toEqual([second.id, first.id]);
    expect(full.pin_count).toBe(2);
    expect((await client.get<BoardList>('/api/boards/')).body.boards[0]).toMatchObject({ id: board.id, pin_count: 2 });
    const removed = await client.delete(`/api/boards/${board.id}/pins/${first.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ message: 'Pin removed from board', board_id: board.id, pin_id: first.id });
    expect((await client.get<Board>(`/api/boards/${board.id}`)).body).toMatchObject({ pin_count: 1, pins: [{ id: second.id }] });
    expect((await client.delete(`/api/boards/${board.id}/pins/${first.id}`)).status).toBe(404);
    expect((await client.post(`/api/boards/${board.id}/pins`, { pin_id: 999999 })).status).toBe(404);
  });

  test('names with characters a reader cannot see (bidi overrides, zero-width, controls) are refused on create and rename; emoji are fine', async () => {
    const { client } = await signUpUser(server.url);
    const message = 'Board name cannot contain invisible or control characters.';
    const hidden = [
      'Family \u202Egpj.exe', // right-to-left override: shows reversed
      'Trips\u2066 isolate', // left-to-right isolate
      'Photos\u200B', // zero-width space (not trimmed)
      'Zero\u200Dwidth joiner', // a joiner outside an emoji
      'Soft\u00ADhyphen',
      'Line\nbreak',
      'Bell\u0007',
      'Hangul\u3164filler',
      'B\uFEFFOM', // a byte-order mark inside (at the ends it is trimmed like a space)
    ];
    for (const name of hidden) {
      const res = await client.post<ErrorBody>('/api/boards/', { name });
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect(res.body).toEqual({ message, errors: [message], fields: { name: message } });
    }
    expect((await client.get<BoardList>('/api/boards/')).body.boards).toEqual([]);
    const board = (await client.post<Board>('/api/boards/', { name: 'Plain' })).body;
    const renamed = await client.patch<ErrorBody>(`/api/boards/${board.id}`, { name: 'Plain\u202E' });
    expect(renamed.status).toBe(400);
    expect(renamed.body.fields).toEqual({ name: message });
    // Emoji keep the joiners they are made of: ❤️ (U+FE0F), 👩‍💻 (U+200D), a skin tone.
    for (const name of ['Love \u2764\uFE0F', '\u{1F469}\u200D\u{1F4BB} Desk setups', '\u{1F44D}\u{1F3FD} Yes', 'Café, "quotes" & ünïcödé — 日本']) {
      const res = await client.post<Board>('/api/boards/', { name });
      expect(res.status, JSON.stringify(name)).toBe(201);
      expect(res.body.name).toBe(name);
    }
  });

  test('rename → 200 board; blank rename refused', async () => {
    const { client } = await signUpUser(server.url);
    const board = (await client.post<Board>('/api/boards/', { name: 'Old' })).body;
    const res = await client.patch<Board>(`/api/boards/${board.id}`, { name: 'New' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...board, name: 'New' });
    expect((await client.patch(`/api/boards/${board.id}`, { name: '' })).status).toBe(400);
    expect((await client.get<Board>(`/api/boards/${board.id}`)).body.name).toBe('New');
  });

  test('delete → 200; gone; its pins stay', async () => {
    const { client } = await signUpUser(server.url);
    const pin = await newPin(client, 'keep');
    const board = (await client.post<Board>('/api/boards/', { name: 'Temp' })).body;
    await client.post(`/api/boards/${board.id}/pins`, { pin_id: pin.id });
    const res = await client.delete(`/api/boards/${board.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Board deleted', id: board.id });
    expect((await client.get(`/api/boards/${board.id}`)).status).toBe(404);
    expect((await client.get(`/api/pins/${pin.id}`)).status).toBe(200);
  });

  test('boards are private: another user gets 404 on every call, as for a board that does not exist, and nothing changes', async () => {
    const owner = await signUpUser(server.url);
    const other = await signUpUser(server.url);
    const pin = await newPin(owner.client, 'p');
    const board = (await owner.client.post<Board>('/api/boards/', { name: 'Private' })).body;
    await owner.client.post(`/api/boards/${board.id}/pins`, { pin_id: pin.id });
    const snapshot = (await owner.client.get<Board>(`/api/boards/${board.id}`)).body;
    expect((await other.client.get<BoardList>('/api/boards/')).body.boards).toEqual([]);
    expect((await other.client.get(`/api/boards/${board.id}`)).status).toBe(404);
    expect((await other.client.patch(`/api/boards/${board.id}`, { name: 'Mine now' })).status).toBe(404);
    expect((await other.client.post(`/api/boards/${board.id}/pins`, { pin_id: pin.id })).status).toBe(404);
    expect((await other.client.delete(`/api/boards/${board.id}/pins/${pin.id}`)).status).toBe(404);
    expect((await other.client.delete(`/api/boards/${board.id}`)).status).toBe(404);
    expect((await owner.client.get<Board>(`/api/boards/${board.id}`)).body).toEqual(snapshot);
  });

  test('signed out → 401 everywhere but reading a board (404 unless public); unknown board → 404', async () => {
    const anon = new ApiClient(server.url);
    expect((await anon.get('/api/boards/')).status).toBe(401);
    // Anyone may read a public board (docs/board-sharing.md); any other is not found.
    expect((await anon.get('/api/boards/1')).status).toBe(404);
    expect((await anon.post('/api/boards/', { name: 'x' })).status).toBe(401);
    expect((await anon.patch('/api/boards/1', { name: 'x' })).status).toBe(401);
    expect((await anon.delete('/api/boards/1')).status).toBe(401);
    expect((await anon.post('/api/boards/1/pins', { pin_id: 1 })).status).toBe(401);
    expect((await anon.delete('/api/boards/1/pins/1')).status).toBe(401);
    const { client } = await signUpUser(server.url);
    expect((await client.get('/api/boards/999999')).status).toBe(404);
    expect((await client.patch('/api/boards/999999', { name: 'x' })).status).toBe(404);
    expect((await client.delete('/api/boards/999999')).status).toBe(404);
  });
});
