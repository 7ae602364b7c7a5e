import { describe, expect, test } from 'vitest';
import type { BlockedUser, BlockList, Unblocked } from '../../contract/blocks.ts';
import type { Board, BoardList, BoardMember } from '../../contract/boards.ts';
import type { ErrorBody } from '../../contract/errors.ts';
import type { User } from '../../contract/users.ts';
import { allPages, ApiClient, signUpUser } from '../support/client.ts';
import { useTestServer } from '../support/use-test-server.ts';

// Being added to boards with consent (docs/board-sharing.md): an invitee sees who added them,
// can leave, and can block that user from adding them again. A blocked owner is not told: their
// invitation gets the answer a username nobody has gets.

const server = useTestServer();

type Who = { client: ApiClient; user: User };

async function ownerAndInvitee(): Promise<{ owner: Who; invitee: Who; board: Board }> {
  const [owner, invitee] = await Promise.all([signUpUser(server.url, 'own'), signUpUser(server.url, 'inv')]);
  const board = (await owner.client.post<Board>('/api/boards/', { name: 'Invited' })).body;
  return { owner, invitee, board };
}

const invite = (owner: Who, boardId: number, username: string) => owner.client.post<ErrorBody & BoardMember>(`/api/boards/${boardId}/members`, { username });

describe('blocking a user from adding you to boards', () => {
  test("a blocked owner's invitation is answered exactly as an unknown username's, and adds nobody", async () => {
    const { owner, invitee, board } = await ownerAndInvitee();
    const blocked = await invitee.client.post<BlockedUser>('/api/users/blocks', { userId: owner.user.id });
    expect(blocked.status).toBe(201);
    expect(blocked.body).toEqual({ id: owner.user.id, username: owner.user.username, blocked_at: expect.any(String) });
    const refused = await invite(owner, board.id, invitee.user.username);
    const unknown = await invite(owner, board.id, 'nobody-has-this-name');
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual(unknown.body);
    expect(refused.body).toEqual({ message: 'User not found.', errors: ['User not found.'], fields: {} });
    expect((await invitee.client.get<BoardList>('/api/boards/')).body.boards).toEqual([]);
    // Others still add them; unblocking lets the owner add them again.
    const other = await signUpUser(server.url, 'oth');
    const otherBoard = (await other.client.post<Board>('/api/boards/', { name: 'Other' })).body;
    expect((await invite(other, otherBoard.id, invitee.user.username)).status).toBe(201);
    const unblocked = await invitee.client.delete<Unblocked>(`/api/users/blocks/${owner.user.id}`);
    expect(unblocked).toMatchObject({ status: 200, body: { message: 'Unblocked', user_id: owner.user.id } });
    const added = await invite(owner, board.id, invitee.user.username);
    expect(added.status).toBe(201);
    expect(added.body.added_by).toEqual({ id: owner.user.id, username: owner.user.username });
  });

  test('leave and block in one call: the board is left, the owner blocked', async () => {
    const { owner, invitee, board } = await ownerAndInvitee();
    expect((await invite(owner, board.id, invitee.user.username)).status).toBe(201);
    const res = await invitee.client.post<BlockedUser>('/api/users/blocks', { userId: owner.user.id, leaveBoardId: board.id });
    expect(res.status).toBe(201);
    expect((await invitee.client.get(`/api/boards/${board.id}`)).status).toBe(404);
    expect((await invite(owner, board.id, invitee.user.username)).status).toBe(404);
    // A board they are not on cannot be left: nothing is blocked then either.
    const stranger = await signUpUser(server.url, 'str');
    const notMember = await invitee.client.post<ErrorBody>('/api/users/blocks', { userId: stranger.user.id, leaveBoardId: board.id });
    expect(notMember.status).toBe(404);
    expect((await invitee.client.get<BlockList>('/api/users/blocks')).body.blocks.map((b) => b.id)).toEqual([owner.user.id]);
  });

  test('the list is yours, newest first, paged; blocking again is 200; self 400; unknown user 404; unblocking twice 404', async () => {
    const me = await signUpUser(server.url, 'me');
    const others = [];
    for (let i = 0; i < 3; i++) others.push(await signUpUser(server.url, `b${i}`));
    for (const other of others) expect((await me.client.post('/api/users/blocks', { userId: other.user.id })).status).toBe(201);
    const again = await me.client.post<BlockedUser>('/api/users/blocks', { userId: others[0]!.user.id });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(others[0]!.user.id);
    const listed = await allPages<BlockedUser>(me.client, '/api/users/blocks?limit=2', 'blocks');
    expect(listed.map((b) => b.id)).toEqual(others.map((o) => o.user.id).reverse());
    // Nobody else sees or changes my list.
    expect((await others[0]!.client.get<BlockList>('/api/users/blocks')).body).toEqual({ blocks: [], nextCursor: null });
    expect((await others[0]!.client.delete(`/api/users/blocks/${others[1]!.user.id}`)).status).toBe(404);
    const self = await me.client.post<ErrorBody>('/api/users/blocks', { userId: me.user.id });
    expect([self.status, self.body.fields]).toEqual([400, { userId: 'You cannot block yourself.' }]);
    expect((await me.client.post<ErrorBody>('/api/users/blocks', { userId: 2147483000 })).status).toBe(404);
    expect((await me.client.delete(`/api/users/blocks/${others[2]!.user.id}`)).status).toBe(200);
    const twice = await me.client.delete<ErrorBody>(`/api/users/blocks/${others[2]!.user.id}`);
    expect([twice.status, twice.body.message]).toEqual([404, 'Block not found.']);
    expect((await new ApiClient(server.url).get('/api/users/blocks')).status).toBe(401);
  });
});
