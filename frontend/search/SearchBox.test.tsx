import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Suggestions } from '../../contract/index.ts';
import { bob, type Handler, makePin, pagedReply, renderApp } from '../test-support/render.tsx';
import { TYPEAHEAD_DELAY_MS } from './useTypeahead.ts';

// The search box as a reader uses it: results as you type (one request per pause in typing, the
// latest answer shown), an ARIA combobox driven from the keyboard, and the choices leading where
// they say.

const sunset = makePin(11, bob, { title: 'Sunset over the bay', tags: ['sunset'] });
const suggestions: Suggestions = {
  tags: [
    { tag: 'sunset', count: 3 },
    { tag: 'sunflower', count: 1 },
  ],
  users: [{ id: bob.id, username: bob.username }],
  colors: [],
};

function searchHandlers(extra: Record<string, Handler> = {}) {
  return {
    'GET /api/pins/': { body: { pins: [], nextCursor: null } },
    'GET /api/search/suggest': { body: suggestions },
    'GET /api/search': pagedReply('pins', [sunset]),
    ...extra,
  };
}

const box = () => screen.getByRole('combobox', { name: 'Search pins' });
const activeOption = () => {
  const id = box().getAttribute('aria-activedescendant');
  return id ? document.getElementById(id) : null;
};

describe('the search box', () => {
  it('shows tags, people and pins as you type, asking once per pause (debounced)', async () => {
    const { sent } = renderApp('/', { handlers: searchHandlers() });
    // Three keystrokes with no pause between them (synchronous: no timer can run in between).
    fireEvent.focus(box());
    for (const text of ['s', 'su', 'sun']) fireEvent.change(box(), { target: { value: text } });
    const list = await screen.findByRole('listbox', { name: 'Search suggestions' });
    expect(await within(list).findByRole('option', { name: /#sunset/ })).toBeTruthy();
    expect(within(list).getByRole('option', { name: /Search for “sun”/ })).toBeTruthy();
    expect(within(list).getByRole('option', { name: /3 pins/ }).textContent).toContain('#sunset');
    expect(within(list).getByRole('group', { name: 'People' })).toBeTruthy();
    expect(within(within(list).getByRole('group', { name: 'Pins' })).getByRole('option', { name: /Sunset over the bay/ })).toBeTruthy();
    expect(box().getAttribute('aria-expanded')).toBe('true');
    // One question, for the whole word.
    expect(sent('GET', '/api/search/suggest').map((call) => call.query.get('q'))).toEqual(['sun']);
    expect(sent('GET', '/api/search').map((call) => call.query.get('q'))).toEqual(['sun']);
    // Screen readers hear how many choices there are.
    expect(screen.getByText('4 suggestions').getAttribute('role')).toBe('status');
  });

  it('the last answer wins: a slow answer for an older text never replaces a newer one', async () => {
    let releaseOld: () => void = () => undefined;
    const oldAnswer = new Promise<void>((resolve) => (releaseOld = resolve));
    const { ui } = renderApp('/', {
      handlers: searchHandlers({
        'GET /api/search/suggest': async (call) => {
          if (call.query.get('q') === 'sun') {
            await oldAnswer;
            return { body: { tags: [{ tag: 'sunstale', count: 9 }], users: [] } };
          }
          return { body: { tags: [{ tag: 'sunsetfresh', count: 2 }], users: [] } };
        },
      }),
    });
    await ui.type(box(), 'sun');
    await new Promise((resolve) => setTimeout(resolve, TYPEAHEAD_DELAY_MS * 2)); // the first question is out
    await ui.type(box(), 'set');
    expect(await screen.findByRole('option', { name: /#sunsetfresh/ })).toBeTruthy();
    releaseOld();
    await new Promise((resolve) => setTimeout(resolve, TYPEAHEAD_DELAY_MS));
    expect(screen.queryByRole('option', { name: /#sunstale/ })).toBeNull();
    expect(screen.getByRole('option', { name: /#sunsetfresh/ })).toBeTruthy();
  });

  it('Up and Down move through the choices, Enter opens the one chosen, Escape closes the list', async () => {
    const { ui, router } = renderApp('/', { handlers: searchHandlers() });
    await ui.type(box(), 'sun');
    await screen.findByRole('option', { name: /#sunset/ });
    expect(activeOption()).toBeNull();
    await ui.keyboard('{ArrowDown}');
    expect(activeOption()?.textContent).toContain('Search for “sun”');
    expect(activeOption()?.getAttribute('aria-selected')).toBe('true');
    await ui.keyboard('{ArrowDown}');
    expect(activeOption()?.textContent).toContain('#sunset');
    await ui.keyboard('{ArrowUp}{ArrowUp}'); // wraps to the last choice
    expect(activeOption()?.textContent).toContain('Sunset over the bay');
    await ui.keyboard('{Escape}');
    expect(box().getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('listbox', { name: 'Search suggestions' })).toBeNull();
    expect((box() as HTMLInputElement).value).toBe('sun');
    await ui.keyboard('{ArrowDown}'); // opens the list again
    await screen.findByRole('option', { name: /#sunset/ });
    await ui.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/tags/sunset'));
    expect(await screen.findByRole('heading', { name: '#sunset' })).toBeTruthy();
    await waitFor(() => expect((box() as HTMLInputElement).value).toBe(''));
  });

  it('Enter without a choice opens the results page, which the address alone restores', async () => {
    const { ui, router, sent } = renderApp('/', { handlers: searchHandlers() });
    await ui.type(box(), '  sun  {Enter}');
    await waitFor(() => expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/search?q=sun'));
    expect(await screen.findByRole('heading', { name: 'Results for “sun”' })).toBeTruthy();
    expect(await screen.findByRole('link', { name: 'Sunset over the bay' })).toBeTruthy();
    expect((box() as HTMLInputElement).value).toBe('sun');
    expect(sent('GET', '/api/search').some((call) => call.query.get('q') === 'sun' && call.query.get('limit') === null)).toBe(true);
  });

  it('a click on a person opens their pins', async () => {
    const { ui, router } = renderApp('/', { handlers: searchHandlers({ 'GET /api/users/lookup': { body: { id: bob.id, username: bob.username } } }) });
    await ui.type(box(), 'bo');
    await ui.click(await screen.findByRole('option', { name: bob.username }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/users/${bob.username}`));
  });
});

describe('the results and tag pages', () => {
  it('no match: "No pins match …" and a way back', async () => {
    const { ui, router } = renderApp('/search?q=zzyzx', { handlers: searchHandlers({ 'GET /api/search': { body: { pins: [], nextCursor: null } } }) });
    expect(await screen.findByText('No pins match “zzyzx”.')).toBeTruthy();
    await ui.click(screen.getByRole('link', { name: 'Back to all pins' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it("a tag page lists the tag's pins (GET /api/pins/?tag=); a pin's #tags link there", async () => {
    const tagged = makePin(21, bob, { description: 'Evening at the pier #Sunset #pier #notstored', tags: ['sunset', 'pier'] });
    const { ui, router, sent } = renderApp('/pins/21', {
      handlers: searchHandlers({
        'GET /api/pins/21': { body: tagged },
        'GET /api/comments/pins/21/comments': { body: { comments: [] } },
        'GET /api/pins/21/related': { body: { pins: [], nextCursor: null } },
        'GET /api/pins/': pagedReply('pins', [tagged]),
      }),
    });
    const link = await screen.findByRole('link', { name: '#Sunset' });
    expect(link.getAttribute('href')).toBe('/tags/sunset');
    expect(link.closest('p')?.textContent).toBe('Evening at the pier #Sunset #pier #notstored');
    expect(screen.queryByRole('link', { name: '#notstored' })).toBeNull();
    // Nothing related: no "More like this" at all.
    await waitFor(() => expect(sent('GET', '/api/pins/21/related')).toHaveLength(1));
    expect(screen.queryByRole('heading', { name: 'More like this' })).toBeNull();
    await ui.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe('/tags/sunset'));
    expect(await screen.findByRole('link', { name: tagged.title })).toBeTruthy();
    expect(sent('GET', '/api/pins/').map((call) => call.query.get('tag'))).toContain('sunset');
  });

  it('"More like this" ends a pin\'s page with the related pins', async () => {
    const subject = makePin(31, bob, { tags: ['kayak'] });
    const like = makePin(32, bob, { title: 'Kayak at dawn' });
    renderApp('/pins/31', {
      handlers: searchHandlers({
        'GET /api/pins/31': { body: subject },
        'GET /api/comments/pins/31/comments': { body: { comments: [] } },
        'GET /api/pins/31/related': pagedReply('pins', [like]),
      }),
    });
    expect(await screen.findByRole('heading', { name: 'More like this' })).toBeTruthy();
    expect(await within(screen.getByRole('region', { name: 'More like this' })).findByRole('link', { name: 'Kayak at dawn' })).toBeTruthy();
  });
});
