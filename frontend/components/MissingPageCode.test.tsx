// A route whose page code cannot be loaded (components/page-code.ts, docs/installable-app.md):
// offline it says so and opens by itself when the browser is back online; online it reloads once
// for the new version, then asks — never "Unexpected Application Error!".
import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorPage } from './ErrorPage.tsx';
import { loadPageCode } from './page-code.ts';

const reload = vi.fn();
let online = true;

beforeEach(() => {
  online = true;
  reload.mockReset();
  sessionStorage.clear();
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
  vi.stubGlobal('location', { ...window.location, pathname: '/login', search: '', reload });
  // The server answers the probe: a failed chunk online means a new version.
  vi.stubGlobal(
    'fetch',
    vi.fn(() => Promise.resolve(new Response(null, { status: 200 }))),
  );
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** The app's shape: a layout with a bar, the page's lazy route with its error element. */
function openMissingPage() {
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: (
          <>
            <nav aria-label="Main">bar</nav>
            <Outlet />
          </>
        ),
        errorElement: <ErrorPage />,
        children: [
          {
            path: 'login',
            errorElement: <ErrorPage />,
            lazy: () =>
              loadPageCode(
                () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
                () => <p>the page</p>,
              ),
          },
        ],
      },
    ],
    { initialEntries: ['/login'] },
  );
  return render(<RouterProvider router={router} />);
}

describe('a page whose code cannot be loaded', () => {
  it('offline, says so under the bar and reloads when the browser is back online', async () => {
    online = false;
    openMissingPage();
    expect(await screen.findByRole('heading', { name: "You're offline" })).toBeTruthy();
    expect(screen.getByText("This page opens when you're back online.")).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeTruthy();
    expect(screen.queryByText('Unexpected Application Error!')).toBeNull();
    expect(reload).not.toHaveBeenCalled();
    online = true;
    // The listener is added by an effect, which a loaded machine may run a little after the heading
    // shows: the browser says "online" until the page hears it.
    await vi.waitFor(() => {
      act(() => {
        window.dispatchEvent(new Event('online'));
      });
      expect(reload).toHaveBeenCalled();
    });
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('offline too when the server does not answer, though the browser says it is online', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    openMissingPage();
    expect(await screen.findByRole('heading', { name: "You're offline" })).toBeTruthy();
  });

  it('online, reloads once for the new version', async () => {
    openMissingPage();
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(screen.queryByText('Unexpected Application Error!')).toBeNull();
  });

  it('after that one reload, says Pinboard was updated and reloads only when asked', async () => {
    sessionStorage.setItem('pinboard:reloaded-for-page-code', '/login');
    openMissingPage();
    expect(await screen.findByRole('heading', { name: 'Pinboard was updated' })).toBeTruthy();
    expect(reload).not.toHaveBeenCalled();
    act(() => screen.getByRole('button', { name: 'Reload' }).click());
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
