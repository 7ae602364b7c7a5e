// Deleting a pin or a board can be undone for a few seconds (frontend/state/deferred-deletes.ts):
// it is hidden at once, and the DELETE goes only when the toast goes, before a logout, or when
// the page is closed.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Pin } from '../../contract/index.ts';
import { UNDO_DELETE_MS } from '../state/deferred-deletes.ts';
import { alice, errorBody, makeBoard, makePin, renderApp } from '../test-support/render.tsx';

type Reply = { status?: number; body: unknown };

function pinHandlers(pins: Pin[], deleteReply: Reply | (() => Reply) = { body: { message: 'Deleted', id: 5 } }) {
  return {
    'GET /api/pins/5': { body: pins[0] },
    'GET /api/comments/pins/5/comments': { body: { comments: [] } },
    'GET /api/pins/': { body: { pins, nextCursor: null } },
    'DELETE /api/pins/5': deleteReply,
  };
}

async function deleteThisPin(ui: ReturnType<typeof renderApp>['ui']) {
  await ui.click(await screen.findByRole('button', { name: 'Delete This Pin' }));
  await ui.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Yes' }));
}

const toaster = () => screen.getByRole('status', { name: 'Notifications' });

describe('deferred deletes with Undo', () => {
  it('a deleted pin leaves Your Pins at once; Undo brings it back and nothing is sent', async () => {
    const pins = [makePin(5), makePin(6)];
    const { ui, sent } = renderApp('/pins/5', { user: alice, handlers: pinHandlers(pins) });
    await deleteThisPin(ui);
    expect(await within(toaster()).findByText('Pin deleted')).toBeTruthy();
    expect(await screen.findByRole('link', { name: 'Pin 6' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Pin 5' })).toBeNull();

    await ui.click(within(toaster()).getByRole('button', { name: 'Undo' }));
    expect(await within(toaster()).findByText('Pin restored')).toBeTruthy();
    expect(await screen.findByRole('link', { name: 'Pin 5' })).toBeTruthy();
    expect(sent('DELETE')).toHaveLength(0);
  });

  it(`the DELETE is sent when the toast runs out (${UNDO_DELETE_MS} ms), and the pin stays gone`, async () => {
    const pins = [makePin(5), makePin(6)];
    const { ui, sent } = renderApp('/pins/5', { user: alice, handlers: pinHandlers(pins) });
    await deleteThisPin(ui);
    expect(await within(toaster()).findByText('Pin deleted')).toBeTruthy();
    expect(sent('DELETE')).toHaveLength(0);
    await waitFor(() => expect(sent('DELETE', '/api/pins/5')).toHaveLength(1), { timeout: 3 * UNDO_DELETE_MS });
    await waitFor(() => expect(within(toaster()).queryByText('Pin deleted')).toBeNull());
    expect(screen.queryByRole('link', { name: 'Pin 5' })).toBeNull();
    expect(await screen.findByRole('link', { name: 'Pin 6' })).toBeTruthy();
  });

  it('a DELETE the server refuses brings the pin back and says so, with Retry (docs/outbox.md)', async () => {
    const pins = [makePin(5), makePin(6)];
    let answer: Reply = { status: 500, body: errorBody('Something went wrong.') };
    const { ui, sent } = renderApp('/pins/5', { user: alice, handlers: pinHandlers(pins, () => answer) });
    await deleteThisPin(ui);
    await ui.click(await within(toaster()).findByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(sent('DELETE', '/api/pins/5')).toHaveLength(1));
    expect(await screen.findByRole('link', { name: 'Pin 5' })).toBeTruthy();
    expect(await within(toaster()).findByText("Couldn't delete the pin — it's back")).toBeTruthy();
    // Retry sends it again, with a key of its own: this time it is done and the pin leaves.
    answer = { body: { message: 'Pin deleted', id: 5 } };
    await ui.click(within(toaster()).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(sent('DELETE', '/api/pins/5')).toHaveLength(2));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Pin 5' })).toBeNull());
    const [first, second] = sent('DELETE', '/api/pins/5');
    expect(first?.headers['Idempotency-Key']).toMatch(/^[0-9a-f]{32}$/);
    expect(second?.headers['Idempotency-Key']).not.toBe(first?.headers['Idempotency-Key']);
  });

  it('a deleted board leaves the boards list; Undo restores it; a logout first sends a pending delete', async () => {
    const boards = [makeBoard(3, [], alice, 'Ideas'), makeBoard(4, [], alice, 'Trips')];
    const { ui, sent, calls } = renderApp('/boards/3', {
      user: alice,
      handlers: {
        'GET /api/boards/3': { body: boards[0] },
        'GET /api/boards/': { body: { boards, nextCursor: null } },
        'DELETE /api/boards/3': { body: { message: 'Deleted', id: 3 } },
        'GET /api/auth/logout': { body: { message: 'Logged out' } },
      },
    });
    const deleteBoard = async () => {
      await ui.click(await screen.findByRole('button', { name: 'Delete Board' }));
      await ui.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Yes' }));
      expect(await within(toaster()).findByText('Board "Ideas" deleted')).toBeTruthy();
      expect(await screen.findByRole('link', { name: /Trips/ })).toBeTruthy();
      expect(screen.queryByRole('link', { name: /Ideas/ })).toBeNull();
    };
    await deleteBoard();
    await ui.click(within(toaster()).getByRole('button', { name: 'Undo' }));
    expect(await screen.findByRole('link', { name: /Ideas/ })).toBeTruthy();
    expect(sent('DELETE')).toHaveLength(0);

    await ui.click(screen.getByRole('link', { name: /Ideas/ }));
    await deleteBoard();
    await ui.click(screen.getByRole('button', { name: 'Profile menu' }));
    await ui.click(screen.getByRole('button', { name: 'Log Out' }));
    await waitFor(() => expect(sent('GET', '/api/auth/logout')).toHaveLength(1));
    const order = calls.map((call) => `${call.method} ${call.path}`);
    expect(order.indexOf('DELETE /api/boards/3')).toBeGreaterThan(-1);
    expect(order.indexOf('DELETE /api/boards/3')).toBeLessThan(order.indexOf('GET /api/auth/logout'));
  });

  it('closing the page sends a pending delete with keepalive', async () => {
    const pins = [makePin(5), makePin(6)];
    const { ui, sent, fetchMock } = renderApp('/pins/5', { user: alice, handlers: pinHandlers(pins) });
    await deleteThisPin(ui);
    expect(await within(toaster()).findByText('Pin deleted')).toBeTruthy();
    window.dispatchEvent(new Event('pagehide'));
    await waitFor(() => expect(sent('DELETE', '/api/pins/5')).toHaveLength(1));
    const init = fetchMock.mock.calls.find(([input, options]) => String(input).endsWith('/api/pins/5') && options?.method === 'DELETE')?.[1];
    expect(init?.keepalive).toBe(true);
    await waitFor(() => expect(within(toaster()).queryByText('Pin deleted')).toBeNull());
  });
});
