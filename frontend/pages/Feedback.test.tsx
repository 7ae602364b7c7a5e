// What a user is told, and where the focus goes: one toast at a time (an Undo toast keeps its
// timer under a newer one), plain toasts gone with the page, Undo by Ctrl+Z, a toast after creating
// a board or saving an edit, and the focus kept in the form after a refusal or an Escape.
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../contract/messages.ts';
import { UNDO_DELETE_MS } from '../state/deferred-deletes.ts';
import { showToast } from '../state/toasts.ts';
import { alice, errorBody, makeBoard, makePin, renderApp } from '../test-support/render.tsx';

const toaster = () => screen.getByRole('status', { name: 'Notifications' });
const toastTexts = () => Array.from(toaster().querySelectorAll('.toast__message')).map((el) => el.textContent);

const pinPage = {
  'GET /api/pins/5': { body: makePin(5) },
  'GET /api/comments/pins/5/comments': { body: { comments: [] } },
  'GET /api/pins/': { body: { pins: [makePin(5), makePin(6)], nextCursor: null } },
  'DELETE /api/pins/5': { body: { message: 'Deleted', id: 5 } },
};

describe('toasts', () => {
  it('one at a time: a newer toast takes the place of an Undo toast, which shows again when the newer one goes and still runs out', async () => {
    const { ui, sent, store } = renderApp('/pins/5', { user: alice, handlers: pinPage });
    await ui.click(await screen.findByRole('button', { name: 'Delete This Pin' }));
    await ui.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Yes' }));
    expect(await within(toaster()).findByText('Pin deleted')).toBeTruthy();
    act(() => void showToast(store, 'Something else', { durationMs: 300 }));
    expect(toastTexts()).toEqual(['Something else']);
    await waitFor(() => expect(toastTexts()).toEqual(['Pin deleted']));
    // Its timer kept running meanwhile (printed, not asserted: timings are not tested).
    const started = Date.now();
    await waitFor(() => expect(sent('DELETE', '/api/pins/5')).toHaveLength(1), { timeout: 3 * UNDO_DELETE_MS });
    expect(toastTexts()).toEqual([]);
    console.log(`deferred delete sent ${Date.now() - started} ms after the Undo toast showed again`);
  });

  it('plain toasts go with the page; a toast shown by the page just navigated to stays', async () => {
    const { ui, store, router } = renderApp('/boards/create', {
      user: alice,
      handlers: {
        'POST /api/boards/': { status: 201, body: makeBoard(8, [], alice, 'Trips') },
        'GET /api/boards/': { body: { boards: [makeBoard(8, [], alice, 'Trips')], nextCursor: null } },
        'GET /api/pins/': { body: { pins: [], nextCursor: null } },
      },
    });
    act(() => void showToast(store, 'Left over from before'));
    await ui.type(await screen.findByLabelText('Board Name'), 'Trips');
    await ui.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/boards'));
    expect(await within(toaster()).findByText('Board "Trips" created')).toBeTruthy();
    expect(toastTexts()).toEqual(['Board "Trips" created']);
    await act(() => router.navigate('/'));
    expect(toastTexts()).toEqual([]);
  });

  it('Ctrl+Z takes the Undo of the newest toast (the button names the shortcut)', async () => {
    const { ui, sent } = renderApp('/pins/5', { user: alice, handlers: pinPage });
    await ui.click(await screen.findByRole('button', { name: 'Delete This Pin' }));
    await ui.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Yes' }));
    const undo = await within(toaster()).findByRole('button', { name: 'Undo' });
    expect(undo.getAttribute('aria-keyshortcuts')).toBe('Control+Z Meta+Z');
    await ui.keyboard('{Control>}z{/Control}');
    expect(await within(toaster()).findByText('Pin restored')).toBeTruthy();
    expect(sent('DELETE')).toHaveLength(0);
  });

  it('saving an edit says so on the page it lands on', async () => {
    const { ui, router } = renderApp('/pins/5/edit', {
      user: alice,
      handlers: { ...pinPage, 'PUT /api/pins/5': { body: makePin(5, alice, { title: 'New title' }) } },
    });
    const title = await screen.findByLabelText('Title');
    await ui.clear(title);
    await ui.type(title, 'New title');
    await ui.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pins'));
    expect(await within(toaster()).findByText('Changes saved')).toBeTruthy();
  });
});

describe('focus', () => {
  it('after a wrong password the focus is on the password field, described by the message (not on <body>)', async () => {
    const { ui } = renderApp('/login', {
      handlers: { 'POST /api/auth/login': { status: 401, body: errorBody(MSG.badCredentials, [MSG.badCredentials], { credential: MSG.badCredentials }) } },
    });
    await ui.type(await screen.findByLabelText('Email'), 'alice@example.com');
    await ui.type(screen.getByLabelText('Password'), 'wrong-password');
    await ui.click(screen.getByRole('button', { name: 'Log In' }));
    await screen.findByText(MSG.badCredentials);
    const password = screen.getByLabelText('Password');
    await waitFor(() => expect(document.activeElement).toBe(password));
    expect(document.getElementById(password.getAttribute('aria-describedby') ?? '')?.textContent).toBe(MSG.badCredentials);
  });

  it('Escape in Rename Board puts the focus back on Rename Board', async () => {
    const { ui } = renderApp('/boards/3', { user: alice, handlers: { 'GET /api/boards/3': { body: { ...makeBoard(3, [], alice, 'Ideas'), nextCursor: null } } } });
    await ui.click(await screen.findByRole('button', { name: 'Rename Board' }));
    await ui.type(screen.getByLabelText('Board name'), 'Other{Escape}');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Rename Board' })));
  });
});
