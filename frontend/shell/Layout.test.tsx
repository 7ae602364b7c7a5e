import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { createStore, Provider } from 'jotai';
import { useState } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { alice, bob, mockApi, renderApp } from '../test-support/render.tsx';
import { ErrorPage } from '../components/ErrorPage.tsx';
import { Layout } from './Layout.tsx';
import { Modal } from '../components/Modal.tsx';

const pins = { 'GET /api/pins/': { body: { pins: [] } } };

describe('Layout and navigation', () => {
  it('renders the page only after the session check', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    renderApp('/', {
      handlers: {
        ...pins,
        'GET /api/auth/': async () => {
          await gate;
          return { body: { user: null } };
        },
      },
    });
    expect(screen.getByText('Loading…')).toBeTruthy();
    expect(screen.queryByText("No pins yet. Let's get creative!")).toBeNull();
    release();
    expect(await screen.findByText("No pins yet. Let's get creative!")).toBeTruthy();
  });

  it('takes the session the HTML came with, without asking', async () => {
    document.head.insertAdjacentHTML('beforeend', `<script type="application/json" id="pinboard-session">${JSON.stringify({ user: alice })}</script>`);
    const { sent } = renderApp('/', { handlers: { ...pins, 'GET /api/auth/': { body: { user: null } } } });
    expect(await screen.findByRole('link', { name: 'Add New Pin' })).toBeTruthy();
    expect(sent('GET', '/api/auth/')).toHaveLength(0);
    expect(document.getElementById('pinboard-session')).toBeNull();
  });

  it('accepts a session answer that is the user itself', async () => {
    renderApp('/', { handlers: { ...pins, 'GET /api/auth/': { body: alice } } });
    expect(await screen.findByRole('link', { name: 'Add New Pin' })).toBeTruthy();
  });

  it('shows the signed-in links and the profile menu with name, email and Log Out', async () => {
    const { ui, router, sent } = renderApp('/boards/create', { user: bob, handlers: { ...pins, 'GET /api/auth/logout': { body: { message: 'bye' } } } });
    for (const name of ['Pins', 'Boards', 'Add New Pin', 'Add New Board']) expect(await screen.findByRole('link', { name })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Favorites' }).getAttribute('href')).toBe('/favorites');
    const toggle = screen.getByRole('button', { name: 'Profile menu' });
    await ui.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByText('Hello, Bobby')).toBeTruthy();
    expect(screen.getByText('bob@example.com')).toBeTruthy();
    await ui.click(screen.getByRole('button', { name: 'Log Out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(sent('GET', '/api/auth/logout')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Add New Pin' })).toBeNull());
  });

  it('the profile menu closes on an outside press and on Escape; anonymous visitors get Log In and Sign Up', async () => {
    const { ui } = renderApp('/', { handlers: pins });
    const toggle = await screen.findByRole('button', { name: 'Profile menu' });
    await ui.click(toggle);
    expect(screen.getByRole('link', { name: 'Log In' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign Up' })).toBeTruthy();
    fireEvent.mouseDown(document.body);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await ui.click(toggle);
    await ui.keyboard('{Escape}');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
  });

  it('shows a not-found page for an unknown route', async () => {
    renderApp('/no/such/page', { handlers: pins });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
  });

  it('shows "Unexpected Application Error!" when a page throws', async () => {
    mockApi({ 'GET /api/auth/': { body: { user: null } } });
    const quiet = console.error;
    console.error = () => undefined;
    function Boom(): never {
      throw new Error('boom');
    }
    const router = createMemoryRouter([{ path: '/', element: <Layout />, errorElement: <ErrorPage />, children: [{ errorElement: <ErrorPage />, children: [{ index: true, element: <Boom /> }] }] }], {
      initialEntries: ['/'],
    });
    render(
      <Provider store={createStore()}>
        <RouterProvider router={router} />
      </Provider>,
    );
    expect(await screen.findByText('Unexpected Application Error!')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Profile menu' })).toBeTruthy(); // the nav bar stays
    console.error = quiet;
  });
});

describe('Modal', () => {
  function Harness() {
    const [open, setOpen] = useState(false);
    return (
      <>
        <button type="button" onClick={() => setOpen(true)}>
          Open
        </button>
        {open ? (
          <Modal title="Dialog" onClose={() => setOpen(false)}>
            <button type="button">First</button>
            <button type="button">Last</button>
          </Modal>
        ) : null}
      </>
    );
  }

  it('moves focus in, traps Tab, closes on Escape and gives focus back', async () => {
    const ui = userEvent.setup();
    render(<Harness />);
    const opener = screen.getByRole('button', { name: 'Open' });
    await ui.click(opener);
    expect(screen.getByRole('dialog', { name: 'Dialog' })).toBeTruthy();
    expect(document.activeElement?.textContent).toBe('First');
    await ui.tab();
    expect(document.activeElement?.textContent).toBe('Last');
    await ui.tab();
    expect(document.activeElement?.textContent).toBe('First');
    await ui.tab({ shift: true });
    expect(document.activeElement?.textContent).toBe('Last');
    await ui.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });
});
