// Being added to a board is never silent (docs/board-sharing.md, "Consent"): a toast says who added
// you and opens the board, the board says so with Leave and Leave-and-block at hand until you
// acknowledge it; the owner's sharing button reads "Invite"; the pickers mark shared boards.
import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Board, BoardMember } from '../../contract/index.ts';
import { alice, bob, makeBoard, makePin, renderApp } from '../test-support/render.tsx';
import { renderLive } from '../test-support/renderLive.tsx';

/** Board 3, alice's, shared with bob (the reader), as bob sees it. */
const shared: Board = { ...makeBoard(3, [makePin(1)], alice, 'Trip'), role: 'collaborator', members: [alice, bob].map(({ id, username }) => ({ id, username })), member_count: 2 };
const members: BoardMember[] = [
  { id: alice.id, username: alice.username, role: 'owner', added_by: null },
  { id: bob.id, username: bob.username, role: 'collaborator', added_by: { id: alice.id, username: alice.username } },
];
const boardHandlers = {
  'GET /api/boards/3': { body: { ...shared, nextCursor: null } },
  'GET /api/boards/3/members': { body: { members } },
  'GET /api/boards/': { body: { boards: [shared], nextCursor: null } },
  'GET /api/pins/': { body: { pins: [makePin(1)], nextCursor: null } },
};

beforeEach(() => localStorage.clear());

describe('being added to a board', () => {
  it('a toast says who added you and opens the board; there, Leave and block alice leaves and blocks in one call', async () => {
    const { socket, router, api } = renderLive('/', bob, {
      ...boardHandlers,
      'POST /api/users/blocks': { status: 201, body: { id: alice.id, username: alice.username, blocked_at: '2026-11-27T10:00:00.000Z' } },
    });
    await screen.findByRole('link', { name: 'Pin 1' });
    const s = await socket();
    act(() => s.serverConnect());
    act(() => s.serverEmit('board:member-added', { boardId: 3, member: members[1] as BoardMember, board: shared, seq: 1 }));
    const toaster = screen.getByRole('status', { name: 'Notifications' });
    expect(await within(toaster).findByText('alice added you to “Trip”')).toBeTruthy();
    await act(async () => within(toaster).getByRole('link', { name: 'Open' }).click());
    await waitFor(() => expect(router.state.location.pathname).toBe('/boards/3'));
    const notice = await screen.findByRole('region', { name: 'Invitation' });
    expect(within(notice).getByText('alice added you to this board.')).toBeTruthy();
    expect(within(notice).getByRole('button', { name: 'Leave board' })).toBeTruthy();
    await act(async () => within(notice).getByRole('button', { name: 'Leave and block alice' }).click());
    await waitFor(() => expect(router.state.location.pathname).toBe('/boards'));
    expect(api.sent('POST', '/api/users/blocks')[0]?.body).toEqual({ userId: alice.id, leaveBoardId: 3 });
    expect(await screen.findByText('You left the board and blocked alice.')).toBeTruthy();
  });

  it('"Got it" puts the notice away for good: it is not shown on the next visit', async () => {
    const first = renderApp('/boards/3', { user: bob, handlers: boardHandlers });
    const notice = await screen.findByRole('region', { name: 'Invitation' });
    expect(screen.getByRole('button', { name: 'Members' })).toBeTruthy();
    await first.ui.click(within(notice).getByRole('button', { name: 'Got it' }));
    expect(screen.queryByRole('region', { name: 'Invitation' })).toBeNull();
    first.unmount();
    renderApp('/boards/3', { user: bob, handlers: boardHandlers });
    expect(await screen.findByRole('link', { name: 'Pin 1' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Invitation' })).toBeNull();
  });

  it("the owner's sharing button reads Invite, a collaborator's Members; the pickers mark shared boards", async () => {
    const own = { ...shared, role: 'owner' as const };
    const { ui } = renderApp('/boards/3', {
      user: alice,
      handlers: { ...boardHandlers, 'GET /api/boards/3': { body: { ...own, nextCursor: null } }, 'GET /api/boards/': { body: { boards: [own], nextCursor: null } } },
    });
    expect(await screen.findByRole('button', { name: 'Invite' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Invitation' })).toBeNull(); // the owner was invited by no one
    await ui.hover(await screen.findByRole('link', { name: 'Pin 1' }));
    await ui.click(screen.getByRole('button', { name: /^Saved?:? / }));
    const sheet = await screen.findByRole('dialog', { name: 'Save to board' });
    expect(within(await within(sheet).findByRole('button', { name: /Trip/ })).getByText('Shared')).toBeTruthy();
  });
});
