import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../contract/messages.ts';
import { alice, errorBody, renderApp } from '../test-support/render.tsx';

async function fill(ui: ReturnType<typeof renderApp>['ui'], values: { email?: string; username?: string; password?: string; confirm?: string }) {
  if (values.email) await ui.type(screen.getByLabelText('Email'), values.email);
  if (values.username) await ui.type(screen.getByLabelText('Username'), values.username);
  if (values.password) await ui.type(screen.getByLabelText('Password'), values.password);
  if (values.confirm) await ui.type(screen.getByLabelText('Confirm Password'), values.confirm);
}

describe('Signup page', () => {
  it('refuses a confirm password that differs, with the exact text, and sends nothing', async () => {
    const { ui, sent } = renderApp('/signup');
    await screen.findByRole('heading', { name: 'Sign Up' });
    await fill(ui, { email: 'new@example.com', username: 'newbie', password: 'secret-123', confirm: 'secret-124' });
    await ui.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText('Confirm Password field must be the same as the Password field')).toBeTruthy();
    expect(sent('POST')).toHaveLength(0);
  });

  it('requires all four fields, sends nothing, and uses no native validation', async () => {
    const { ui, sent, container } = renderApp('/signup');
    await screen.findByRole('heading', { name: 'Sign Up' });
    expect(container.querySelector('form')?.noValidate).toBe(true);
    expect(container.querySelector('[required]')).toBeNull();
    await ui.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(screen.getByText(MSG.emailRequired)).toBeTruthy();
    expect(screen.getByText(MSG.usernameRequired)).toBeTruthy();
    expect(screen.getByText(MSG.passwordRequired)).toBeTruthy();
    expect(screen.getByText('Confirm Password is required.')).toBeTruthy();
    expect(sent('POST')).toHaveLength(0);
  });

  it('shows the server field messages under the inputs', async () => {
    const { ui, sent } = renderApp('/signup', {
      handlers: {
        'POST /api/auth/signup': {
          status: 409,
          body: errorBody('Conflict', [MSG.emailTaken, MSG.usernameTaken], { email: MSG.emailTaken, username: MSG.usernameTaken }),
        },
      },
    });
    await screen.findByRole('heading', { name: 'Sign Up' });
    await fill(ui, { email: 'alice@example.com', username: 'alice', password: 'secret-123', confirm: 'secret-123' });
    await ui.click(screen.getByRole('button', { name: 'Sign Up' }));
    const email = screen.getByLabelText('Email');
    await waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(email.getAttribute('aria-describedby') ?? '')?.textContent).toBe(MSG.emailTaken);
    expect(screen.getByText(MSG.usernameTaken)).toBeTruthy();
    expect(sent('POST', '/api/auth/signup')[0]?.body).toEqual({ email: 'alice@example.com', username: 'alice', password: 'secret-123' });
  });

  it('shows "Something went wrong. Please try again" on a 5xx answer', async () => {
    const { ui } = renderApp('/signup', { handlers: { 'POST /api/auth/signup': { status: 500, body: errorBody('Internal') } } });
    await screen.findByRole('heading', { name: 'Sign Up' });
    await fill(ui, { email: 'a@b.co', username: 'abc', password: 'secret-123', confirm: 'secret-123' });
    await ui.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText('Something went wrong. Please try again')).toBeTruthy();
  });

  it('signs in and leaves /signup on success, with the CSRF header from the cookie', async () => {
    document.cookie = 'XSRF-TOKEN=tok%2Fen-1; path=/';
    const { ui, router, sent } = renderApp('/signup', { handlers: { 'POST /api/auth/signup': { status: 201, body: alice }, 'GET /api/pins/': { body: { pins: [] } } } });
    await screen.findByRole('heading', { name: 'Sign Up' });
    await fill(ui, { email: 'alice@example.com', username: 'alice', password: 'secret-123', confirm: 'secret-123' });
    await ui.click(screen.getByRole('button', { name: 'Sign Up' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(sent('POST', '/api/auth/signup')[0]?.headers['X-XSRF-TOKEN']).toBe('tok/en-1');
  });

  it('redirects a signed-in visitor to /', async () => {
    const { router } = renderApp('/signup', { user: alice, handlers: { 'GET /api/pins/': { body: { pins: [] } } } });
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});
