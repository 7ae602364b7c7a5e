import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../contract/messages.ts';
import { alice, errorBody, renderApp } from '../test-support/render.tsx';

const pins = { 'GET /api/pins/': { body: { pins: [] } } };

describe('Login page', () => {
  it('requires email and password and sends nothing without them', async () => {
    const { ui, sent } = renderApp('/login');
    await screen.findByRole('heading', { name: 'Log In' });
    await ui.click(screen.getByRole('button', { name: 'Log In' }));
    expect(screen.getByText(MSG.emailRequired)).toBeTruthy();
    expect(screen.getByText(MSG.passwordRequired)).toBeTruthy();
    expect(sent('POST')).toHaveLength(0);
  });

  it('shows the credential message from the server answer', async () => {
    const { ui } = renderApp('/login', {
      handlers: { 'POST /api/auth/login': { status: 401, body: errorBody(MSG.badCredentials, [MSG.badCredentials], { credential: MSG.badCredentials }) } },
    });
    await screen.findByRole('heading', { name: 'Log In' });
    await ui.type(screen.getByLabelText('Email'), 'alice@example.com');
    await ui.type(screen.getByLabelText('Password'), 'wrong-password');
    await ui.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByText(MSG.badCredentials)).toBeTruthy();
  });

  it('shows email and password field messages under their inputs', async () => {
    const { ui } = renderApp('/login', {
      handlers: { 'POST /api/auth/login': { status: 400, body: errorBody('Invalid', [MSG.emailInvalid], { email: MSG.emailInvalid, password: 'Password is wrong.' }) } },
    });
    await screen.findByRole('heading', { name: 'Log In' });
    await ui.type(screen.getByLabelText('Email'), 'x@y');
    await ui.type(screen.getByLabelText('Password'), 'p');
    await ui.click(screen.getByRole('button', { name: 'Log In' }));
    await screen.findByText(MSG.emailInvalid);
    const password = screen.getByLabelText('Password');
    expect(document.getElementById(password.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Password is wrong.');
  });

  it('shows "Something went wrong. Please try again" at 500 and above', async () => {
    const { ui } = renderApp('/login', { handlers: { 'POST /api/auth/login': { status: 503, body: errorBody(MSG.unavailable) } } });
    await screen.findByRole('heading', { name: 'Log In' });
    await ui.type(screen.getByLabelText('Email'), 'alice@example.com');
    await ui.type(screen.getByLabelText('Password'), 'secret-123');
    await ui.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByText('Something went wrong. Please try again')).toBeTruthy();
  });

  it('logs in as the demo user through the server, sending no password', async () => {
    const demo = { id: 9, username: 'demo', email: 'demo@pinboard.test', firstName: 'Demo' };
    const { ui, sent, router } = renderApp('/login', { handlers: { 'POST /api/auth/demo': { body: demo }, ...pins } });
    await ui.click(await screen.findByRole('button', { name: 'Log in as Demo User' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(sent('POST', '/api/auth/demo')).toHaveLength(1);
    expect(sent('POST', '/api/auth/login')).toHaveLength(0);
    await ui.click(screen.getByRole('button', { name: 'Profile menu' }));
    expect(screen.getByText('Hello, Demo')).toBeTruthy();
  });

  it('shows "Demo login failed" when the demo login fails', async () => {
    const { ui } = renderApp('/login', { handlers: { 'POST /api/auth/demo': { status: 404, body: errorBody(MSG.demoUnavailable) } } });
    await ui.click(await screen.findByRole('button', { name: 'Log in as Demo User' }));
    expect(await screen.findByText('Demo login failed')).toBeTruthy();
  });

  it('sends an anonymous visitor of a signed-in page to /login and back afterwards', async () => {
    const { ui, router } = renderApp('/boards', {
      handlers: { 'POST /api/auth/login': { body: alice }, 'GET /api/boards/': { body: { boards: [] } } },
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    await ui.type(await screen.findByLabelText('Email'), 'alice@example.com');
    await ui.type(screen.getByLabelText('Password'), 'secret-123');
    await ui.click(screen.getByRole('button', { name: 'Log In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/boards'));
    expect(await screen.findByText('No boards found.')).toBeTruthy();
  });
});
