import { act, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { createStore, Provider } from 'jotai';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Board, BoardMember, User } from '../../contract/index.ts';
import { MSG } from '../../contract/messages.ts';
import { routes } from '../routes.tsx';
import { startFakeLiveClient, type FakeSocket } from '../test-support/fakeSocket.ts';
import { alice, bob, errorBody, makeBoard, makePin, mockApi, renderApp, type Handler } from '../test-support/render.tsx';

// Shared boards on the client (docs/board-sharing.md): the members dialog for the owner (type-ahead, add,
// remove) and for a collaborator (the list, Leave board), what each may see on the board page,
// the boards list's "Shared" mark, and the page that closes when its reader is removed.

const carol: User = { id: 3, username: 'carol', email: 'carol@example.com' };

function sharedBoard(role: Board['role'], extra: Partial<Board> = {}): Board {
  return {
    ...makeBoard(3, [makePin(1), makePin(2)], alice, 'Together'),
    role,
    members: [
      { id: alice.id, username: alice.username },
      { id: bob.id, username: bob.username },
    ],
    member_count: 2,
    ...extra,
  };
}

const members: BoardMember[] = [
  { id: alice.id, username: 'alice', role: 'owner', added_by: null },
  { id: bob.id, username: 'bob', role: 'collaborator', added_by: { id: alice.id, username: 'alice' } },
];

describe('the members dialog, as the owner', () => {
  it('lists the members, suggests users as one types, adds with the keyboard, removes', async () => {
    const { ui, sent } = renderApp('/boards/3', {
      user: alice,
      handlers: {
        'GET /api/boards/3': { body: { ...sharedBoard('owner'), nextCursor: null } },
        'GET /api/boards/3/members': { body: { members } },
        'GET /api/users/': (call) => ({
          body: { users: [bob, carol].filter((u) => u.username.startsWith(call.query.get('q') ?? '')).map((u) => ({ id: u.id, username: u.username })) },
        }),
        'POST /api/boards/3/members': (call) => ({
          status: 201,
          body: { id: carol.id, username: (call.body as { username: string }).username, role: 'collaborator', added_by: { id: alice.id, username: 'alice' } },
        }),
        'DELETE /api/boards/3/members/2': { body: { message: 'Member removed from board', board_id: 3, user_id: 2 } },
      },
    });
    expect(await screen.findByRole('heading', { name: 'Together' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Rename Board' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Delete Board' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Shared with 2 people: alice, bob' })).toBeTruthy();

    await ui.click(screen.getByRole('button', { name: 'Invite' }));
    const dialog = await screen.findByRole('dialog', { name: 'Members' });
    const list = await within(dialog).findByRole('list', { name: 'Members of Together' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Aalice (you)Owner', 'Bbob' + 'Collaborator · added by aliceRemove']);

    // The input has focus; typing asks the server; bob is a member already and is not suggested.
    const input = within(dialog).getByRole('combobox', { name: 'Add by username' });
    expect(document.activeElement).toBe(input);
    await ui.type(input, 'c');
    const option = await within(dialog).findByRole('option', { name: 'carol' });
    expect(within(dialog).queryByRole('option', { name: 'bob' })).toBeNull();
    await ui.keyboard('{ArrowDown}');
    expect(option.getAttribute('aria-selected')).toBe('true');
    expect(input.getAttribute('aria-activedescendant')).toBe(option.id);
    await ui.keyboard('{Enter}');
    await waitFor(() => expect(sent('POST', '/api/boards/3/members')[0]?.body).toEqual({ username: 'carol' }));
    expect(await within(list).findByText('carol')).toBeTruthy();
    expect((input as HTMLInputElement).value).toBe('');

    await ui.click(within(dialog).getByRole('button', { name: 'Remove bob' }));
    await waitFor(() => expect(within(list).queryByText('bob')).toBeNull());
    expect(sent('DELETE', '/api/boards/3/members/2')).toHaveLength(1);

    await ui.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows the server’s message when an invitation is refused, and a retry when the list fails to load', async () => {
    let failList = true;
    const { ui } = renderApp('/boards/3', {
      user: alice,
      handlers: {
        'GET /api/boards/3': { body: { ...sharedBoard('owner'), nextCursor: null } },
        'GET /api/boards/3/members': () => (failList ? { status: 500, body: errorBody(MSG.serverError) } : { body: { members } }),
        'GET /api/users/': { body: { users: [] } },
        'POST /api/boards/3/members': { status: 404, body: errorBody('User not found.') },
      },
    });
    await ui.click(await screen.findByRole('button', { name: 'Invite' }));
    const dialog = await screen.findByRole('dialog', { name: 'Members' });
    expect(await within(dialog).findByText('Could not load the members.')).toBeTruthy();
    failList = false;
    await ui.click(within(dialog).getByRole('button', { name: 'Try again' }));
    expect(await within(dialog).findByText('bob')).toBeTruthy();

    await ui.type(within(dialog).getByRole('combobox', { name: 'Add by username' }), 'nobody');
    expect(await within(dialog).findByText('No matching users.')).toBeTruthy();
    await ui.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('User not found.');
  });
});

describe('as a collaborator', () => {
  it('no Rename or Delete; the members dialog lists the members and offers "Leave board", which goes back to the boards', async () => {
    const { ui, sent, router } = renderApp('/boards/3', {
      user: bob,
      handlers: {
        'GET /api/boards/3': { body: { ...sharedBoard('collaborator'), nextCursor: null } },
        'GET /api/boards/3/members': { body: { members } },
        'DELETE /api/boards/3/members/2': { body: { message: 'Member removed from board', board_id: 3, user_id: 2 } },
        'GET /api/boards/': { body: { boards: [], nextCursor: null } },
      },
    });
    expect(await screen.findByRole('heading', { name: 'Together' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Rename Board' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete Board' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Manage Pins' })).toBeTruthy();
    // Collaborators curate: every card keeps its remove button.
    expect(await screen.findByRole('button', { name: 'Delete Pin Pin 1 from this board' })).toBeTruthy();

    await ui.click(screen.getByRole('button', { name: 'Members' }));
    const dialog = await screen.findByRole('dialog', { name: 'Members' });
    expect(await within(dialog).findByText('alice')).toBeTruthy();
    expect(within(dialog).queryByRole('combobox')).toBeNull();
    expect(within(dialog).queryByRole('button', { name: /^Remove/ })).toBeNull();
    await ui.click(within(dialog).getByRole('button', { name: 'Leave board' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/boards'));
    expect(sent('DELETE', '/api/boards/3/members/2')).toHaveLength(1);
    expect(await screen.findByText(MSG.boardLeft)).toBeTruthy();
  });
});

describe('the boards list', () => {
  it('marks shared boards with "Shared" and the members’ initials; a board of one has neither', async () => {
    const boards = [sharedBoard('collaborator'), makeBoard(4, [], bob, 'Mine alone')];
    renderApp('/boards', { user: bob, handlers: { 'GET /api/boards/': { body: { boards, nextCursor: null } } } });
    const list = await screen.findByRole('list', { name: 'Your boards' });
    const [shared, alone] = within(list).getAllByRole('listitem');
    expect(within(shared as HTMLElement).getByText('Shared')).toBeTruthy();
    expect(within(shared as HTMLElement).getByRole('img', { name: 'Shared with 2 people: alice, bob' }).textContent).toBe('AB');
    expect(within(alone as HTMLElement).queryByText('Shared')).toBeNull();
  });
});

function renderLive(path: string, user: User, handlers: Record<string, Handler>) {
  window.scrollTo = () => undefined;
  const api = mockApi({ 'GET /api/auth/': { body: { user } }, 'GET /api/favorites/': { body: { pins: [] } }, ...handlers });
  const store = createStore();
  const { sockets } = startFakeLiveClient(store);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  const socket = async () => {
    await waitFor(() => expect(sockets.length).toBeGreaterThan(0));
    return sockets.at(-1) as FakeSocket;
  };
  return { api, store, router, socket, ui: userEvent.setup() };
}

describe('live', () => {
  it('a collaborator removed by the owner: their open board page closes with a notice, and the board leaves their list', async () => {
    const { socket, router } = renderLive('/boards/3', bob, {
      'GET /api/boards/3': { body: { ...sharedBoard('collaborator'), nextCursor: null } },
      'GET /api/boards/': { body: { boards: [], nextCursor: null } },
    });
    expect(await screen.findByRole('heading', { name: 'Together' })).toBeTruthy();
    const s = await socket();
    act(() => s.serverConnect());
    // Someone else's removal only changes the avatars.
    act(() =>
      s.serverEmit('board:member-added', {
        boardId: 3,
        member: { id: carol.id, username: 'carol', role: 'collaborator', added_by: { id: alice.id, username: 'alice' } },
        board: sharedBoard('collaborator', { members: [...sharedBoard('collaborator').members, { id: carol.id, username: 'carol' }], member_count: 3 }),
        seq: 5,
      }),
    );
    expect(await screen.findByRole('img', { name: 'Shared with 3 people: alice, bob, carol' })).toBeTruthy();
    act(() => s.serverEmit('board:member-removed', { boardId: 3, userId: carol.id, seq: 6 }));
    expect(await screen.findByRole('img', { name: 'Shared with 2 people: alice, bob' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/boards/3');

    act(() => s.serverEmit('board:member-removed', { boardId: 3, userId: bob.id, seq: 7 }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/boards'));
    expect((await screen.findByText(MSG.boardRemovedNotice)).getAttribute('role')).toBe('status');
    expect(screen.queryByText('Together')).toBeNull();
  });

  it('a user invited to a board sees it appear in their boards list', async () => {
    const { socket } = renderLive('/boards', carol, { 'GET /api/boards/': { body: { boards: [], nextCursor: null } } });
    expect(await screen.findByText('No boards found.')).toBeTruthy();
    const s = await socket();
    act(() => s.serverConnect());
    act(() =>
      s.serverEmit('board:member-added', {
        boardId: 3,
        member: { id: carol.id, username: 'carol', role: 'collaborator', added_by: { id: alice.id, username: 'alice' } },
        board: sharedBoard('collaborator', { member_count: 3 }),
        seq: 9,
      }),
    );
    expect(await screen.findByText('Together')).toBeTruthy();
    expect(screen.getByText('Shared')).toBeTruthy();
  });
});
