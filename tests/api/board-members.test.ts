import { sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import type { Board, BoardList, BoardMember, BoardMembers, BoardPage } from '../../contract/boards.ts';
import type { ErrorBody } from '../../contract/errors.ts';
import { LIMITS } from '../../contract/limits.ts';
import { MSG } from '../../contract/messages.ts';
import type { Pin } from '../../contract/pins.ts';
import type { User, UserSearchResult } from '../../contract/users.ts';
import { allPages, ApiClient, signUpUser } from '../support/client.ts';
import { newPin } from '../support/factories.ts';
import { testDatabaseKind } from '../support/server.ts';
import { useTestServer } from '../support/use-test-server.ts';

// Shared boards (docs/board-sharing.md): the authorization matrix of every board route for the
// owner, a collaborator, another signed-in user and an anonymous visitor, the member calls
// themselves, the boards list with shared boards, and the username type-ahead.

const server = useTestServer();

type Who = { client: ApiClient; user: User };

/** An owner with a board holding one pin, a collaborator on it, and an outsider. */
async function sharedBoard(): Promise<{ owner: Who; collaborator: Who; other: Who; board: Board; pin: Pin }> {
  const [owner, collaborator, other] = await Promise.all([signUpUser(server.url, 'own'), signUpUser(server.url, 'col'), signUpUser(server.url, 'oth')]);
  const board = (await owner.client.post<Board>('/api/boards/', { name: 'Together' })).body;
  const pin = await newPin(owner.client, 'first');
  await owner.client.post(`/api/boards/${board.id}/pins`, { pin_id: pin.id });
  const added = await owner.client.post<BoardMember>(`/api/boards/${board.id}/members`, { username: collaborator.user.username });
  expect(added.status).toBe(201);
  return { owner, collaborator, other, board, pin };
}

describe('the authorization matrix of board routes', () => {
  // Each row: the call, and the status for owner / collaborator / other user / anonymous. A
  // fresh shared board per row so a write by one caller cannot change another's answer.
  type Setup = Awaited<ReturnType<typeof sharedBoard>>;
  type Row = { call: string; run: (client: ApiClient, s: Setup, extraPin: Pin) => Promise<{ status: number; body: unknown }>; owner: number; collaborator: number; other: number; anonymous?: number };
  const rows: Row[] = [
    // Signed out, a private board is not found (a public one could be read: board-links.test.ts).
    { call: 'GET /api/boards/{id}', run: (c, s) => c.get(`/api/boards/${s.board.id}`), owner: 200, collaborator: 200, other: 404, anonymous: 404 },
    { call: 'PATCH /api/boards/{id}', run: (c, s) => c.patch(`/api/boards/${s.board.id}`, { name: 'Renamed' }), owner: 200, collaborator: 403, other: 404 },
    { call: 'DELETE /api/boards/{id}', run: (c, s) => c.delete(`/api/boards/${s.board.id}`), owner: 200, collaborator: 403, other: 404 },
    { call: 'POST /api/boards/{id}/pins', run: (c, s, p) => c.post(`/api/boards/${s.board.id}/pins`, { pin_id: p.id }), owner: 201, collaborator: 201, other: 404 },
    { call: 'DELETE /api/boards/{id}/pins/{pinId}', run: (c, s) => c.delete(`/api/boards/${s.board.id}/pins/${s.pin.id}`), owner: 200, collaborator: 200, other: 404 },
    { call: 'GET /api/boards/{id}/members', run: (c, s) => c.get(`/api/boards/${s.board.id}/members`), owner: 200, collaborator: 200, other: 404 },
    { call: 'POST /api/boards/{id}/members', run: (c, s) => c.post(`/api/boards/${s.board.id}/members`, { username: s.other.user.username }), owner: 201, collaborator: 403, other: 404 },
    {
      call: 'DELETE /api/boards/{id}/members/{userId} (the collaborator)',
      run: (c, s) => c.delete(`/api/boards/${s.board.id}/members/${s.collaborator.user.id}`),
      owner: 200,
      collaborator: 200,
      other: 404,
    },
    {
      call: 'DELETE /api/boards/{id}/members/{userId} (the owner)',
      run: (c, s) => c.delete(`/api/boards/${s.board.id}/members/${s.owner.user.id}`),
      owner: 403,
      collaborator: 403,
      other: 404,
    },
  ];

  for (const row of rows) {
    test(`${row.call}: owner ${row.owner}, collaborator ${row.collaborator}, other ${row.other}, anonymous ${row.anonymous ?? 401}`, async () => {
      for (const who of ['owner', 'collaborator', 'other', 'anonymous'] as const) {
        const s = await sharedBoard();
        const extraPin = await newPin(s.other.client, 'extra');
        const before = (await s.owner.client.get<BoardPage>(`/api/boards/${s.board.id}`)).body;
        const client = who === 'anonymous' ? new ApiClient(server.url) : s[who].client;
        const res = await row.run(client, s, extraPin);
        const expected = who === 'anonymous' ? (row.anonymous ?? 401) : row[who];
        expect({ who, status: res.status }).toEqual({ who, status: expected });
        if (expected >= 400) {
          expect(Object.keys(res.body as ErrorBody).sort()).toEqual(['errors', 'fields', 'message']);
          // A refused call changes nothing.
          expect((await s.owner.client.get<BoardPage>(`/api/boards/${s.board.id}`)).body).toEqual(before);
        }
      }
    });
  }

  test('a collaborator refused an owner-only action is told why (403), a non-member learns nothing (404 "Board not found.")', async () => {
    const s = await sharedBoard();
    const rename = await s.collaborator.client.patch<ErrorBody>(`/api/boards/${s.board.id}`, { name: 'x' });
    expect(rename.body.message).toBe(MSG.boardOwnerOnly);
    const kick = await s.collaborator.client.delete<ErrorBody>(`/api/boards/${s.board.id}/members/${s.owner.user.id}`);
    expect(kick.body.message).toBe(MSG.boardCollaboratorLeaveOnly);
    const leaveOwn = await s.owner.client.delete<ErrorBody>(`/api/boards/${s.board.id}/members/${s.owner.user.id}`);
    expect(leaveOwn.body.message).toBe(MSG.boardOwnerCannotLeave);
    const outsider = await s.other.client.get<ErrorBody>(`/api/boards/${s.board.id}/members`);
    expect(outsider.body.message).toBe('Board not found.');
    const unknown = await s.owner.client.get<ErrorBody>('/api/boards/2147483000/members');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Board not found.');
  });
});

describe('members', () => {
  test('GET lists the owner first, then collaborators in the order they joined; POST answers the member; matching is case-insensitive', async () => {
    const s = await sharedBoard();
    const third = await signUpUser(server.url, 'thr');
    const added = await s.owner.client.post<BoardMember>(`/api/boards/${s.board.id}/members`, { username: `  ${third.user.username.toUpperCase()} ` });
    expect(added.status).toBe(201);
    // Each member says who added them (null for the owner): an invitee can tell who put them there.
    const addedBy = { id: s.owner.user.id, username: s.owner.user.username };
    expect(added.body).toEqual({ id: third.user.id, username: third.user.username, role: 'collaborator', added_by: addedBy });
    const { body } = await s.collaborator.client.get<BoardMembers>(`/api/boards/${s.board.id}/members`);
    expect(body).toEqual({
      members: [
        { id: s.owner.user.id, username: s.owner.user.username, role: 'owner', added_by: null },
        { id: s.collaborator.user.id, username: s.collaborator.user.username, role: 'collaborator', added_by: addedBy },
        { id: third.user.id, username: third.user.username, role: 'collaborator', added_by: addedBy },
      ],
    });
  });

  test('404 unknown user; 409 already a member or the owner; 400 without a username', async () => {
    const s = await sharedBoard();
    const unknown = await s.owner.client.post<ErrorBody>(`/api/boards/${s.board.id}/members`, { username: 'nobody-by-this-name' });
    expect([unknown.status, unknown.body.message]).toEqual([404, 'User not found.']);
    const again = await s.owner.client.post<ErrorBody>(`/api/boards/${s.board.id}/members`, { username: s.collaborator.user.username });
    expect([again.status, again.body.message]).toEqual([409, MSG.boardMemberAlready]);
    const self = await s.owner.client.post<ErrorBody>(`/api/boards/${s.board.id}/members`, { username: s.owner.user.username });
    expect([self.status, self.body.message]).toEqual([409, MSG.boardMemberAlready]);
    const blank = await s.owner.client.post<ErrorBody>(`/api/boards/${s.board.id}/members`, { username: '  ' });
    expect([blank.status, blank.body.fields]).toEqual([400, { username: MSG.usernameRequired }]);
    expect((await s.owner.client.get<BoardMembers>(`/api/boards/${s.board.id}/members`)).body.members).toHaveLength(2);
  });

  test(`at most ${LIMITS.boardCollaborators} collaborators: the next invitation is 409`, async () => {
    const owner = await signUpUser(server.url, 'cap');
    const board = (await owner.client.post<Board>('/api/boards/', { name: 'Full' })).body;
    // Collaborators written straight to the table: signing 50 users up would only test signup.
    const users = await server.server.database.db
      .insertInto('users')
      .values(
        Array.from({ length: LIMITS.boardCollaborators }, (_, i) => ({
          email: `cap${board.id}x${i}@example.test`,
          username: `cap${board.id}x${i}`,
          username_skeleton: `cap${board.id}x${i}`,
          password_hash: 'x',
        })),
      )
      .returning('id')
      .execute();
    await server.server.database.db
      .insertInto('board_members')
      .values(users.map((u) => ({ board_id: board.id, user_id: u.id })))
      .execute();
    const late = await signUpUser(server.url, 'late');
    const res = await owner.client.post<ErrorBody>(`/api/boards/${board.id}/members`, { username: late.user.username });
    expect([res.status, res.body.message]).toEqual([409, MSG.boardMembersFull]);
    const listed = (await owner.client.get<BoardList>('/api/boards/')).body.boards[0];
    expect(listed?.member_count).toBe(LIMITS.boardCollaborators + 1);
    expect(listed?.members).toHaveLength(LIMITS.boardMemberAvatars);
    expect(listed?.members[0]?.id).toBe(owner.user.id);
  });

  test('a collaborator leaves; the owner removes; removing a non-member is 404; a removed user gets 404 at once', async () => {
    const s = await sharedBoard();
    expect((await s.collaborator.client.delete(`/api/boards/${s.board.id}/members/${s.collaborator.user.id}`)).status).toBe(200);
    expect((await s.collaborator.client.get(`/api/boards/${s.board.id}`)).status).toBe(404);
    expect((await s.collaborator.client.post(`/api/boards/${s.board.id}/pins`, { pin_id: s.pin.id })).status).toBe(404);
    expect((await s.owner.client.delete(`/api/boards/${s.board.id}/members/${s.collaborator.user.id}`)).status).toBe(404);
    await s.owner.client.post(`/api/boards/${s.board.id}/members`, { username: s.other.user.username });
    const removed = await s.owner.client.delete(`/api/boards/${s.board.id}/members/${s.other.user.id}`);
    expect(removed).toMatchObject({ status: 200, body: { message: 'Member removed from board', board_id: s.board.id, user_id: s.other.user.id } });
    expect((await s.other.client.get<BoardList>('/api/boards/')).body.boards).toEqual([]);
  });

  test("deleting a board removes it from its collaborators' lists too", async () => {
    const s = await sharedBoard();
    expect((await s.owner.client.delete(`/api/boards/${s.board.id}`)).status).toBe(200);
    expect((await s.collaborator.client.get<BoardList>('/api/boards/')).body.boards).toEqual([]);
    expect((await s.collaborator.client.get(`/api/boards/${s.board.id}`)).status).toBe(404);
  });
});

describe('the boards list with shared boards', () => {
  test('own and shared boards, newest first, each with the reader’s role and the members for avatars', async () => {
    const s = await sharedBoard();
    const own = (await s.collaborator.client.post<Board>('/api/boards/', { name: 'Mine' })).body;
    const { body } = await s.collaborator.client.get<BoardList>('/api/boards/');
    expect(body.boards.map((b) => [b.id, b.role])).toEqual([
      [own.id, 'owner'],
      [s.board.id, 'collaborator'],
    ]);
    const shared = body.boards[1] as Board;
    expect(shared).toMatchObject({
      name: 'Together',
      user_id: s.owner.user.id,
      pin_count: 1,
      pins: [{ id: s.pin.id }],
      members: [
        { id: s.owner.user.id, username: s.owner.user.username },
        { id: s.collaborator.user.id, username: s.collaborator.user.username },
      ],
      member_count: 2,
    });
    const ownersView = (await s.owner.client.get<BoardPage>(`/api/boards/${s.board.id}`)).body;
    expect(ownersView.role).toBe('owner');
    expect((await s.collaborator.client.get<BoardPage>(`/api/boards/${s.board.id}`)).body).toEqual({ ...ownersView, role: 'collaborator' });
  });

  test('pages of a mix of own and shared boards hold every board once, in id order, whatever the page size', async () => {
    const me = await signUpUser(server.url, 'mix');
    const friend = await signUpUser(server.url, 'fri');
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) {
      const mine = i % 3 !== 0;
      const client = mine ? me.client : friend.client;
      const board = (await client.post<Board>('/api/boards/', { name: `b${i}` })).body;
      if (!mine) await friend.client.post(`/api/boards/${board.id}/members`, { username: me.user.username });
      ids.push(board.id);
    }
    // A board of the friend's that is not shared is not listed.
    await friend.client.post('/api/boards/', { name: 'private' });
    const expected = [...ids].sort((a, b) => b - a);
    for (const limit of [1, 2, 3, 50]) {
      const all = await allPages<Board>(me.client, `/api/boards/?limit=${limit}`, 'boards');
      expect(all.map((b) => b.id)).toEqual(expected);
    }
  });

  test('page reads stay on the indexes (no sequential scan of boards or board_members)', async () => {
    if (testDatabaseKind() !== 'postgres') return; // the plan is Postgres's; PGlite runs the same SQL
    const me = await signUpUser(server.url, 'pln');
    await server.server.database.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const plan = await sql<{ 'QUERY PLAN': string }>`explain
        (select id from boards where user_id = ${me.user.id} and id < 1000000 order by id desc limit 51)
        union all
        (select board_id from board_members where user_id = ${me.user.id} and board_id < 1000000 order by board_id desc limit 51)`.execute(trx);
      const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(text).not.toMatch(/Seq Scan/);
      expect(text).toMatch(/boards_user_id_idx/);
      expect(text).toMatch(/board_members_user_board|board_members_pkey/);
    });
  });
});

describe('GET /api/users/?q= (the invite type-ahead)', () => {
  test('signed-in only; up to 10 users whose username starts with q, case-insensitively, by username; % and _ are literal', async () => {
    const tag = `zq${Date.now().toString(36)}`;
    const made: User[] = [];
    for (let i = 0; i < 12; i++) {
      const c = new ApiClient(server.url);
      const name = `${tag}_${String(i).padStart(2, '0')}`;
      made.push((await c.post<User>('/api/auth/signup', { email: `${name}@example.test`, username: name, password: 'correct horse battery' })).body);
    }
    const reader = await signUpUser(server.url, 'rdr');
    const res = await reader.client.get<UserSearchResult>(`/api/users/?q=${tag.toUpperCase()}_`);
    expect(res.status).toBe(200);
    expect(res.body.users).toEqual(made.slice(0, LIMITS.userSearchResults).map((u) => ({ id: u.id, username: u.username })));
    expect((await reader.client.get<UserSearchResult>(`/api/users/?q=${tag}_1`)).body.users.map((u) => u.username)).toEqual([`${tag}_10`, `${tag}_11`]);
    expect((await reader.client.get<UserSearchResult>(`/api/users/?q=${tag}%25`)).body.users).toEqual([]);
    expect((await reader.client.get<UserSearchResult>(`/api/users/?q=${tag.slice(0, -1)}_`)).body.users).toEqual([]);
    expect((await reader.client.get(`/api/users/?q=`)).status).toBe(400);
    expect((await reader.client.get(`/api/users/`)).status).toBe(400);
    expect((await new ApiClient(server.url).get(`/api/users/?q=${tag}`)).status).toBe(401);
  });

  test('the prefix match reads the "C"-collated username index', async () => {
    if (testDatabaseKind() !== 'postgres') return;
    await server.server.database.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const plan = await sql<{ 'QUERY PLAN': string }>`explain select id, username from users
        where lower(username) collate "C" like (lower(${'ab'}) || '%') collate "C" order by lower(username) collate "C" limit 10`.execute(trx);
      expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/users_username_prefix/);
    });
  });
});
