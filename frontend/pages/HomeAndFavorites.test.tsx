import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { alice, bob, gridCardIds, makePin, renderApp } from '../test-support/render.tsx';
import { removePin, setPinLikes, upsertPin } from '../state/pins.ts';
import { addFavorite } from '../state/favorites.ts';

describe('Home page', () => {
  it('shows the empty text', async () => {
    renderApp('/', { handlers: { 'GET /api/pins/': { body: { pins: [] } } } });
    expect(await screen.findByText("No pins yet. Let's get creative!")).toBeTruthy();
  });

  it('anonymous visitors see pins without hearts or Edit links (only Save, which asks them to log in)', async () => {
    renderApp('/', { handlers: { 'GET /api/pins/': { body: { pins: [makePin(1), makePin(2)] } } } });
    const grid = await screen.findByRole('region', { name: 'All pins' });
    // The region shows before the grid has measured and placed its cards: wait for them.
    await waitFor(() => expect(within(grid).getAllByRole('article')).toHaveLength(2));
    // Save over the image (pointers that hover), or "…" beside the title (touch screens): CSS shows one.
    expect(
      within(grid)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label')),
    ).toEqual(['Save Pin 1 to a board', 'More for Pin 1: save, share', 'Save Pin 2 to a board', 'More for Pin 2: save, share']);
    expect(within(grid).queryByRole('link', { name: /^Edit/ })).toBeNull();
  });

  it('hearts for signed-in users; Edit only on their own pins; toggling favorites', async () => {
    const { ui, sent } = renderApp('/', {
      user: bob,
      handlers: {
        'GET /api/pins/': { body: { pins: [makePin(1, alice), makePin(2, bob)] } },
        'POST /api/favorites/': { status: 201, body: { id: 7, pin_id: 1, title: 'Pin 1', image_url: '/seed-images/1.svg', image: null, likes_count: 1, likes_version: 1 } },
      },
    });
    const grid = await screen.findByRole('region', { name: 'All pins' });
    // The region shows before the grid has measured and placed its cards: wait for them.
    expect((await within(grid).findByRole('link', { name: 'Edit Pin 2' })).getAttribute('href')).toBe('/pins/2/edit');
    expect(within(grid).queryByRole('link', { name: 'Edit Pin 1' })).toBeNull();
    const heart = await within(grid).findByRole('button', { name: 'Add Pin 1 to favorites' });
    await ui.click(heart);
    await waitFor(() => expect(within(grid).getByRole('button', { name: 'Remove Pin 1 from favorites' }).getAttribute('aria-pressed')).toBe('true'));
    expect(sent('POST', '/api/favorites/')[0]?.body).toEqual({ pin_id: 1 });
  });

  it('draws the first page the HTML came with, without asking for it; the next page is asked for with its seed', async () => {
    const served = Array.from({ length: 3 }, (_, i) => makePin(i + 1));
    document.head.insertAdjacentHTML(
      'beforeend',
      `<meta name="pinboard-home-seed" content="77"><script type="application/json" id="pinboard-home-first-page">${JSON.stringify({ seed: 77, page: { pins: served, nextCursor: 'next' } })}</script>`,
    );
    const { sent } = renderApp('/', { handlers: { 'GET /api/pins/': { body: { pins: [makePin(4)], nextCursor: null } } } });
    await waitFor(() => expect(gridCardIds().slice(0, 3)).toEqual([1, 2, 3]));
    const shuffles = () => sent('GET', '/api/pins/').filter((c) => c.query.get('order') === 'shuffle');
    await waitFor(() => expect(shuffles().map((c) => `${c.query.get('seed')} ${c.query.get('cursor')}`)).toEqual(['77 next']));
    await waitFor(() => expect(gridCardIds()).toEqual([1, 2, 3, 4]));
    expect(document.getElementById('pinboard-home-first-page')).toBeNull(); // taken once
  });

  it('a served page of another seed is not used: the page is fetched', async () => {
    document.head.insertAdjacentHTML(
      'beforeend',
      `<script type="application/json" id="pinboard-home-first-page">${JSON.stringify({ seed: 5, page: { pins: [makePin(9)], nextCursor: null } })}</script>`,
    );
    const { sent } = renderApp('/', { handlers: { 'GET /api/pins/': { body: { pins: [makePin(1)], nextCursor: null } } } });
    await waitFor(() => expect(gridCardIds()).toEqual([1]));
    expect(sent('GET', '/api/pins/').filter((c) => c.query.get('order') === 'shuffle' && c.query.get('cursor') === null)).toHaveLength(1);
  });

  it('asks for the shuffle of the visit; live updates patch cards in place and deletions drop out, without reordering', async () => {
    const pins = Array.from({ length: 8 }, (_, i) => makePin(i + 1));
    const { store, sent } = renderApp('/', { handlers: { 'GET /api/pins/': { body: { pins, nextCursor: null } } } });
    const grid = await screen.findByRole('region', { name: 'All pins' });
    const shuffle = sent('GET', '/api/pins/').find((c) => c.query.get('order') === 'shuffle');
    expect(shuffle?.query.get('seed')).toMatch(/^[0-9]+$/);
    // The region shows before the grid has measured and placed its cards: wait for them.
    await waitFor(() => expect(gridCardIds()).toEqual([1, 2, 3, 4, 5, 6, 7, 8])); // the server's order, as served
    const first = gridCardIds();
    act(() => upsertPin(store, { ...pins[3]!, title: 'Changed title', updated_at: '2026-01-01T00:00:00.000Z' }));
    expect(gridCardIds()).toEqual(first);
    expect(within(grid).getByRole('link', { name: 'Changed title' })).toBeTruthy();
    act(() => removePin(store, 5));
    await waitFor(() => expect(gridCardIds()).toEqual(first.filter((id) => id !== 5)));
  });
});

describe('Favorites page', () => {
  const fav = { id: 3, pin_id: 1, title: 'Pin 1', image_url: '/seed-images/1.svg', image: null, likes_count: 4, likes_version: 4 };

  it('lists favorites with the likes count; the heart removes it (tooltip "Remove from favorites")', async () => {
    const { ui, sent } = renderApp('/favorites', {
      user: bob,
      handlers: { 'GET /api/favorites/': { body: { pins: [fav] } }, 'DELETE /api/favorites/3': { body: { message: 'Removed', id: 3, pin_id: 1, likes_count: 3, likes_version: 3 } } },
    });
    expect(await screen.findByRole('heading', { name: 'Favorites' })).toBeTruthy();
    const heart = await screen.findByTitle('Remove from favorites');
    expect(heart.textContent).toBe('4');
    expect((await screen.findByRole('link', { name: 'Pin 1' })).getAttribute('href')).toBe('/pins/1');
    await ui.click(heart);
    expect(await screen.findByText('No favorited pin yet!')).toBeTruthy();
    expect(sent('DELETE', '/api/favorites/3')).toHaveLength(1);
  });

  it('follows like counts and favorites applied to the store from outside', async () => {
    const { store } = renderApp('/favorites', { user: bob, handlers: { 'GET /api/favorites/': { body: { pins: [] } } } });
    expect(await screen.findByText('No favorited pin yet!')).toBeTruthy();
    act(() => addFavorite(store, fav));
    expect(await screen.findByTitle('Remove from favorites')).toBeTruthy();
    act(() => setPinLikes(store, 1, 9));
    expect(screen.getByTitle('Remove from favorites').textContent).toBe('9');
  });
});
