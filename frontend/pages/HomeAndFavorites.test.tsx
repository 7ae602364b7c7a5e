import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { alice, bob, makePin, renderApp } from '../test-support/render.tsx';
import { upsertPin, removePin, setPinLikes } from '../state/pins.ts';
import { upsertFavorite } from '../state/favorites.ts';

describe('Home page', () => {
  it('shows the empty text', async () => {
    renderApp('/', { handlers: { 'GET /api/pins/': { body: { pins: [] } } } });
    expect(await screen.findByText("No pins yet. Let's get creative!")).toBeTruthy();
  });

  it('anonymous visitors see pins without hearts or Edit links', async () => {
    renderApp('/', { handlers: { 'GET /api/pins/': { body: { pins: [makePin(1), makePin(2)] } } } });
    const grid = await screen.findByRole('region', { name: 'All pins' });
    expect(within(grid).getAllByRole('article')).toHaveLength(2);
    expect(within(grid).queryByRole('button')).toBeNull();
    expect(within(grid).queryByRole('link', { name: /^Edit/ })).toBeNull();
  });

  it('hearts for signed-in users; Edit only on their own pins; toggling favorites', async () => {
    const { ui, sent } = renderApp('/', {
      user: bob,
      handlers: {
        'GET /api/pins/': { body: { pins: [makePin(1, alice), makePin(2, bob)] } },
        'POST /api/favorites/': { status: 201, body: { id: 7, pin_id: 1, title: 'Pin 1', image_url: '/seed-images/1.svg', likes_count: 1 } },
      },
    });
    const grid = await screen.findByRole('region', { name: 'All pins' });
    expect(within(grid).getByRole('link', { name: 'Edit Pin 2' }).getAttribute('href')).toBe('/pins/2/edit');
    expect(within(grid).queryByRole('link', { name: 'Edit Pin 1' })).toBeNull();
    const heart = within(grid).getByRole('button', { name: 'Add Pin 1 to favorites' });
    await ui.click(heart);
    await waitFor(() => expect(within(grid).getByRole('button', { name: 'Remove Pin 1 from favorites' }).getAttribute('aria-pressed')).toBe('true'));
    expect(sent('POST', '/api/favorites/')[0]?.body).toEqual({ pin_id: 1 });
  });

  it('keeps the shuffled order fixed while the store changes, and shows store updates live', async () => {
    const pins = Array.from({ length: 8 }, (_, i) => makePin(i + 1));
    const { store } = renderApp('/', { handlers: { 'GET /api/pins/': { body: { pins } } } });
    const grid = await screen.findByRole('region', { name: 'All pins' });
    const order = () => within(grid).getAllByRole('article').map((a) => a.getAttribute('data-pin-id'));
    const first = order();
    act(() => upsertPin(store, { ...pins[3]!, title: 'Changed title', updated_at: '2026-01-01T00:00:00.000Z' }));
    expect(order()).toEqual(first);
    expect(within(grid).getByRole('link', { name: 'Changed title' })).toBeTruthy();
    act(() => removePin(store, 5));
    expect(order()).toEqual(first.filter((id) => id !== '5'));
    act(() => upsertPin(store, makePin(20, alice, { created_at: '2026-02-01T00:00:00.000Z' })));
    expect(order()[0]).toBe('20');
  });
});

describe('Favorites page', () => {
  const fav = { id: 3, pin_id: 1, title: 'Pin 1', image_url: '/seed-images/1.svg', likes_count: 4 };

  it('lists favorites with the likes count; the heart removes it (tooltip "Remove from favorites")', async () => {
    const { ui, sent } = renderApp('/favorites', {
      user: bob,
      handlers: { 'GET /api/favorites/': { body: { pins: [fav] } }, 'DELETE /api/favorites/3': { body: { message: 'Removed', id: 3, pin_id: 1, likes_count: 3 } } },
    });
    expect(await screen.findByRole('heading', { name: 'Favorites' })).toBeTruthy();
    const heart = await screen.findByTitle('Remove from favorites');
    expect(heart.textContent).toBe('4');
    expect(screen.getByRole('link', { name: 'Pin 1' }).getAttribute('href')).toBe('/pins/1');
    await ui.click(heart);
    expect(await screen.findByText('No favorited pin yet!')).toBeTruthy();
    expect(sent('DELETE', '/api/favorites/3')).toHaveLength(1);
  });

  it('follows like counts and favorites applied to the store from outside', async () => {
    const { store } = renderApp('/favorites', { user: bob, handlers: { 'GET /api/favorites/': { body: { pins: [] } } } });
    expect(await screen.findByText('No favorited pin yet!')).toBeTruthy();
    act(() => upsertFavorite(store, fav));
    expect(await screen.findByTitle('Remove from favorites')).toBeTruthy();
    act(() => setPinLikes(store, 1, 9));
    expect(screen.getByTitle('Remove from favorites').textContent).toBe('9');
  });
});
