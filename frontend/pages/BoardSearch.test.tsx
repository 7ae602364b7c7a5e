// "Search this board" on a board's page (docs/search.md): its words open the search page scoped to
// the board, the address the search page's own scope choice writes (`scope=board:<id>`).
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { alice, bob, makeBoard, pagedReply, renderApp } from '../test-support/render.tsx';

const address = (router: { state: { location: { pathname: string; search: string } } }) => router.state.location.pathname + router.state.location.search;

describe('Search this board', () => {
  it("a member's board: the words open the search page in this board", async () => {
    const { ui, router } = renderApp('/boards/3', {
      user: alice,
      handlers: { 'GET /api/boards/3': { body: makeBoard(3, [], alice, 'Ideas') }, 'GET /api/search': pagedReply('pins', [], 50, () => ({ widened: false })) },
    });
    const search = await screen.findByRole('search', { name: 'This board' });
    await ui.type(within(search).getByRole('searchbox', { name: 'Search this board' }), 'red barns');
    await ui.click(within(search).getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(address(router)).toBe('/search?q=red+barns&scope=board%3A3'));
    const scope = await screen.findByRole('combobox', { name: 'Search in' });
    await waitFor(() => expect((scope as HTMLSelectElement).value).toBe('board:3'));
  });

  it('a public board seen by a non-member has it too; without words it opens the search page scoped', async () => {
    const board = { ...makeBoard(5, [], bob, 'Bob’s barns'), visibility: 'public' as const, role: 'viewer' as const };
    const { ui, router } = renderApp('/boards/5', { user: alice, handlers: { 'GET /api/boards/5': { body: board } } });
    const search = await screen.findByRole('search', { name: 'This board' });
    await ui.click(within(search).getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(address(router)).toBe('/search?scope=board%3A5'));
  });
});
