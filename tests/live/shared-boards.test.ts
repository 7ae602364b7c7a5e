import { expect, test } from 'vitest';
import type { Board, BoardMember } from '../../contract/boards.ts';
import type { Pin } from '../../contract/pins.ts';
import { signUpUser } from '../support/client.ts';
import { nextEvent } from '../support/sockets.ts';
import { useTwoInstances } from '../support/use-two-instances.ts';

// Shared boards live (docs/board-sharing.md), on two instances sharing Postgres and Redis: every
// member's sockets get every change of the board, whichever instance made it and whichever they are
// on; a removed member stops getting them at once.

const app = useTwoInstances({ env: { AUTH_RATE_LIMIT_PER_IP: '100000' } });

test("a collaborator's add on instance 2 reaches the owner's socket on instance 1, and every member hears every change with their own role", async () => {
  const owner = await signUpUser(app.one.url, 'lsown');
  const collaborator = await signUpUser(app.two.url, 'lscol');
  const outsider = await signUpUser(app.one.url, 'lsout');
  const ownerOnOne = await app.socket(app.one, owner.client);
  const collaboratorOnTwo = await app.socket(app.two, collaborator.client);
  const outsiderOnTwo = await app.socket(app.two, outsider.client);

  const board = (await owner.client.post<Board>('/api/boards/', { name: 'Live together' })).body;
  // The invitation reaches the new member (so the board shows in their list) and the owner.
  const member = (await owner.client.post<BoardMember>(`/api/boards/${board.id}/members`, { username: collaborator.user.username })).body;
  const toCollaborator = await nextEvent(collaboratorOnTwo, 'board:member-added', (p) => p.boardId === board.id);
  expect(toCollaborator).toMatchObject({ member, board: { id: board.id, role: 'collaborator', member_count: 2 } });
  // The new member learns who added them (to leave or block them: docs/board-sharing.md).
  expect(toCollaborator.member.added_by).toEqual({ id: owner.user.id, username: owner.user.username });
  const toOwner = await nextEvent(ownerOnOne, 'board:member-added', (p) => p.boardId === board.id);
  expect(toOwner.board.role).toBe('owner');
  expect(toOwner.seq).toBe(toCollaborator.seq);

  // The collaborator adds a pin through instance 2; the owner's socket on instance 1 gets it.
  const pin = (await collaborator.client.post<Pin>('/api/pins/', { title: 'Shared find', imageUrl: 'https://a.test/shared.png' })).body;
  expect((await collaborator.client.post(`/api/boards/${board.id}/pins`, { pin_id: pin.id })).status).toBe(201);
  const added = await nextEvent(ownerOnOne, 'board:pin-added', (p) => p.boardId === board.id);
  expect(added).toEqual({ boardId: board.id, pin: { id: pin.id, title: 'Shared find', image_url: pin.image_url, image: null, visibility: 'public' }, pinCount: 1, seq: expect.any(Number) });
  expect((await nextEvent(collaboratorOnTwo, 'board:pin-added', (p) => p.boardId === board.id)).seq).toBe(added.seq);

  // The owner's rename and removal reach the collaborator, with the collaborator's role.
  await owner.client.patch(`/api/boards/${board.id}`, { name: 'Renamed live' });
  expect((await nextEvent(collaboratorOnTwo, 'board:updated', (p) => p.board.id === board.id)).board).toMatchObject({ name: 'Renamed live', role: 'collaborator' });
  expect((await nextEvent(ownerOnOne, 'board:updated', (p) => p.board.id === board.id)).board.role).toBe('owner');
  await owner.client.delete(`/api/boards/${board.id}/pins/${pin.id}`);
  expect(await nextEvent(collaboratorOnTwo, 'board:pin-removed', (p) => p.boardId === board.id)).toMatchObject({ pinId: pin.id, pinCount: 0 });

  // Nothing of it reached a non-member: a sentinel on the outsider's own room, sent after all of
  // the above through the same instance, arrives after anything that was going to arrive.
  await outsider.client.post('/api/boards/', { name: 'Sentinel' });
  await nextEvent(outsiderOnTwo, 'board:created');
  expect(outsiderOnTwo.received.filter((r) => r.event.startsWith('board:') && r.event !== 'board:created')).toEqual([]);
});

test('a removed member hears of the removal and stops receiving the board’s events at once', async () => {
  const owner = await signUpUser(app.one.url, 'lsown');
  const collaborator = await signUpUser(app.one.url, 'lscol');
  const ownerOnTwo = await app.socket(app.two, owner.client);
  const collaboratorOnTwo = await app.socket(app.two, collaborator.client);
  const board = (await owner.client.post<Board>('/api/boards/', { name: 'Leaving soon' })).body;
  await owner.client.post(`/api/boards/${board.id}/members`, { username: collaborator.user.username });
  await nextEvent(collaboratorOnTwo, 'board:member-added', (p) => p.boardId === board.id);

  expect((await owner.client.delete(`/api/boards/${board.id}/members/${collaborator.user.id}`)).status).toBe(200);
  expect(await nextEvent(collaboratorOnTwo, 'board:member-removed', (p) => p.boardId === board.id)).toEqual({
    boardId: board.id,
    userId: collaborator.user.id,
    seq: expect.any(Number),
  });
  expect(await nextEvent(ownerOnTwo, 'board:member-removed', (p) => p.boardId === board.id)).toMatchObject({ userId: collaborator.user.id });

  // Right after the removal answered: the owner's changes go to the owner only.
  const pin = (await owner.client.post<Pin>('/api/pins/', { title: 'After', imageUrl: 'https://a.test/after.png' })).body;
  await owner.client.post(`/api/boards/${board.id}/pins`, { pin_id: pin.id });
  await owner.client.patch(`/api/boards/${board.id}`, { name: 'Without you' });
  await nextEvent(ownerOnTwo, 'board:updated', (p) => p.board.id === board.id);
  // Sentinel: published by instance 1 after the owner's changes, so it arrives after them.
  await collaborator.client.post('/api/boards/', { name: 'Sentinel' });
  await nextEvent(collaboratorOnTwo, 'board:created', (p) => p.board.name === 'Sentinel');
  const afterRemoval = collaboratorOnTwo.received.filter((r) => ['board:pin-added', 'board:updated'].includes(r.event) && JSON.stringify(r.payload).includes(`${board.id}`));
  expect(afterRemoval).toEqual([]);
});
