// Guests and menus: the signed-out bar's "Log in" / "Sign up", Escape and arrow keys in the menus, and no
// console error for a pin address that is no id.
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { alice, bob, makeBoard, makePin, renderApp } from '../test-support/render.tsx';

const pin = makePin(5, alice, { title: 'Lake' });
const base = {
  'GET /api/pins/': { body: { pins: [] } },
  'GET /api/pins/5': { body: pin },
  'GET /api/comments/pins/5/comments': { body: { comments: [] } },
};

describe('signed-out navigation bar', () => {
  it('shows "Log in" and "Sign up" links, and logging in returns to the page', async () => {
    const { ui, router } = renderApp('/pins/5', {
      handlers: { ...base, 'POST /api/auth/login': { body: alice } },
    });
    expect(await screen.findByRole('heading', { name: 'Lake' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/login');
    const signup = screen.getByRole('link', { name: 'Sign up' });
    expect(signup.getAttribute('href')).toBe('/signup');
    expect(signup.className).toContain('nav__signup');
    // Via "Sign up" and then the form's own "Log in" link: the return location survives both.
    await ui.click(signup);
    await waitFor(() => expect(router.state.location.pathname).toBe('/signup'));
    await ui.click(screen.getAllByRole('link', { name: 'Log in' })[0] as HTMLElement); // the bar's
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    // The log-in form, not the sign-up form it replaces (whose fields have the same labels).
    await screen.findByRole('button', { name: 'Log In' });
    await ui.type(screen.getByLabelText('Email'), 'alice@example.com');
    await ui.type(screen.getByLabelText('Password'), 'password1');
    await ui.click(screen.getByRole('button', { name: 'Log In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pins/5'));
  });

  it('is as before when signed in (no "Log in" / "Sign up")', async () => {
    renderApp('/', { user: bob, handlers: base });
    expect(await screen.findByRole('link', { name: 'Add New Pin' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Log in' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Sign up' })).toBeNull();
  });

  it('ignores a return location that is not a same-site path', async () => {
    const { ui, router } = renderApp('/', { handlers: { ...base, 'POST /api/auth/login': { body: alice } } });
    await screen.findByRole('link', { name: 'Log in' });
    await router.navigate('/login', { state: { from: '//evil.example/x' } });
    await ui.type(await screen.findByLabelText('Email'), 'alice@example.com');
    await ui.type(screen.getByLabelText('Password'), 'password1');
    await ui.click(screen.getByRole('button', { name: 'Log In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});

describe('menus and focus', () => {
  it('Escape closes the profile menu and returns focus to its button', async () => {
    const { ui } = renderApp('/', { user: bob, handlers: base });
    const toggle = await screen.findByRole('button', { name: 'Profile menu' });
    await ui.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    await ui.tab(); // into the menu
    expect(document.activeElement).not.toBe(toggle);
    await ui.keyboard('{Escape}');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(toggle);
  });

  it('the board picker: arrow keys, Home and End move through items; Escape closes and returns focus', async () => {
    const boards = [makeBoard(8, [], bob, 'One'), makeBoard(9, [], bob, 'Two')];
    const { ui } = renderApp('/pins/5', { user: bob, handlers: { ...base, 'GET /api/boards/': { body: { boards } } } });
    const toggle = await screen.findByRole('button', { name: 'Add To Board' });
    await ui.click(toggle);
    const one = await screen.findByRole('button', { name: 'One' });
    const two = screen.getByRole('button', { name: 'Two' });
    const create = screen.getByRole('button', { name: '+ Create New Board' });
    await ui.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(one);
    await ui.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(two);
    await ui.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(create);
    await ui.keyboard('{ArrowDown}'); // wraps
    expect(document.activeElement).toBe(one);
    await ui.keyboard('{ArrowUp}'); // wraps back
    expect(document.activeElement).toBe(create);
    await ui.keyboard('{Home}');
    expect(document.activeElement).toBe(one);
    await ui.keyboard('{End}');
    expect(document.activeElement).toBe(create);
    await ui.keyboard('{Escape}');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(toggle);
  });
});

describe('console', () => {
  it('/pins/abc shows "Pin not found" without logging an error or calling the server', async () => {
    const error = vi.spyOn(console, 'error');
    const { sent } = renderApp('/pins/abc', { handlers: base });
    expect(await screen.findByRole('heading', { name: 'Pin not found' })).toBeTruthy();
    await new Promise((r) => setTimeout(r, 50));
    expect(error).not.toHaveBeenCalled();
    expect(sent('GET', '/api/pins/abc')).toHaveLength(0);
  });
});
