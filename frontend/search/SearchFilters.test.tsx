import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Suggestions } from '../../contract/index.ts';
import { alice, bob, type Handler, makePin, pagedReply, renderApp } from '../test-support/render.tsx';

// The search page's colour chips, scope and "Showing results for …", and the type-ahead's colours,
// as a reader uses them: the address carries every choice, and the request says the same.

const red = makePin(41, bob, { title: 'Poppies' });
const suggestions: Suggestions = { tags: [], users: [], colors: ['black', 'blue'] };

function handlers(extra: Record<string, Handler> = {}) {
  return {
    'GET /api/pins/': { body: { pins: [], nextCursor: null } },
    'GET /api/search/suggest': { body: suggestions },
    'GET /api/search': pagedReply('pins', [red], 50, () => ({ widened: false })),
    ...extra,
  };
}
const address = (router: { state: { location: { pathname: string; search: string } } }) => `${router.state.location.pathname}${router.state.location.search}`;

describe('the search page', () => {
  it('says "Showing results for …" when a misspelt word was widened, and not otherwise', async () => {
    renderApp('/search?q=popies', { handlers: handlers({ 'GET /api/search': pagedReply('pins', [red], 50, () => ({ widened: true })) }) });
    expect(await screen.findByRole('link', { name: 'Poppies' })).toBeTruthy();
    expect((await screen.findByText(/Showing results for words like “popies”/)).closest('[role=status]')).toBeTruthy();
  });

  it('no note when the words were matched as typed', async () => {
    renderApp('/search?q=poppies', { handlers: handlers() });
    expect(await screen.findByRole('link', { name: 'Poppies' })).toBeTruthy();
    expect(screen.queryByText(/Showing results for/)).toBeNull();
  });

  it('colour chips toggle color= in the address, and the search asks for them', async () => {
    const { ui, router, sent } = renderApp('/search?q=flowers', { handlers: handlers() });
    const chips = await screen.findByRole('group', { name: 'Colors' });
    expect(within(chips).getAllByRole('button')).toHaveLength(12);
    const redChip = within(chips).getByRole('button', { name: 'Red' });
    expect(redChip.getAttribute('aria-pressed')).toBe('false');
    await ui.click(redChip);
    await waitFor(() => expect(address(router)).toBe('/search?q=flowers&color=red'));
    expect(
      within(screen.getByRole('group', { name: 'Colors' }))
        .getByRole('button', { name: 'Red' })
        .getAttribute('aria-pressed'),
    ).toBe('true');
    await waitFor(() => expect(sent('GET', '/api/search').some((call) => call.query.get('q') === 'flowers' && call.query.get('color') === 'red')).toBe(true));
    // From the keyboard: Tab to a chip, Enter presses it.
    const blue = within(screen.getByRole('group', { name: 'Colors' })).getByRole('button', { name: 'Blue' });
    blue.focus();
    await ui.keyboard('{Enter}');
    await waitFor(() => expect(address(router)).toBe('/search?q=flowers&color=red&color=blue'));
    await ui.click(within(screen.getByRole('group', { name: 'Colors' })).getByRole('button', { name: 'Red' }));
    await waitFor(() => expect(address(router)).toBe('/search?q=flowers&color=blue'));
  });

  it('colours alone list their pins (asked as color:NAME words)', async () => {
    const { sent } = renderApp('/search?color=red&color=blue', { handlers: handlers() });
    expect(await screen.findByRole('heading', { name: 'Pins in red and blue' })).toBeTruthy();
    expect(await screen.findByRole('link', { name: 'Poppies' })).toBeTruthy();
    const call = sent('GET', '/api/search')[0];
    expect(call?.query.get('q')).toBe('color:red color:blue');
    expect(call?.query.get('color')).toBeNull();
  });

  it('where to look: all pins, or (signed in) your pins or favorites, in the address; "This board" when it came from one', async () => {
    const { router, sent } = renderApp('/search?q=flowers', { handlers: handlers(), user: alice });
    const scope = await screen.findByRole('combobox', { name: 'Search in' });
    await waitFor(() =>
      expect(
        within(scope)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['All pins', 'Your pins', 'Your favorites']),
    );
    fireEvent.change(scope, { target: { value: 'favorites' } });
    await waitFor(() => expect(address(router)).toBe('/search?q=flowers&scope=favorites'));
    await waitFor(() => expect(sent('GET', '/api/search').some((call) => call.query.get('scope') === 'favorites')).toBe(true));
    await router.navigate('/search?q=flowers&scope=board%3A7');
    const board = await screen.findByRole('combobox', { name: 'Search in' });
    await waitFor(() => expect((board as HTMLSelectElement).value).toBe('board:7'));
    expect(within(board).getByRole('option', { name: 'This board' })).toBeTruthy();
  });

  it('signed out, only all pins', async () => {
    renderApp('/search?q=flowers', { handlers: handlers() });
    const scope = await screen.findByRole('combobox', { name: 'Search in' });
    expect(
      within(scope)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All pins']);
  });
});

describe('the type-ahead', () => {
  it('lists matching colours with a swatch; choosing one searches with color:NAME in place of the word', async () => {
    const { ui, router, sent } = renderApp('/', { handlers: handlers() });
    const box = screen.getByRole('combobox', { name: 'Search pins' });
    await ui.type(box, 'sunset bl');
    const colors = await screen.findByRole('group', { name: 'Colors' });
    expect(
      within(colors)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['BlackPictures with black', 'BluePictures with blue']);
    expect(colors.querySelectorAll('.swatch')).toHaveLength(2);
    // Search for the text, then Black, then Blue.
    await ui.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}{Enter}');
    await waitFor(() => expect(address(router)).toBe('/search?q=sunset+color%3Ablue'));
    await waitFor(() => expect(sent('GET', '/api/search').some((call) => call.query.get('q') === 'sunset color:blue' && call.query.get('limit') === null)).toBe(true));
    await waitFor(() => expect((screen.getByRole('combobox', { name: 'Search pins' }) as HTMLInputElement).value).toBe('sunset color:blue'));
  });
});
