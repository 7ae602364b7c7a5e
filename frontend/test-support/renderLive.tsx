// The app with a fake live socket playing the server (../test-support/fakeSocket.ts), for tests of
// screens driven by live events.
import { render, waitFor } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { expect } from 'vitest';
import type { User } from '../../contract/index.ts';
import { routes } from '../routes.tsx';
import { followNavigation } from '../state/toasts.ts';
import { startFakeLiveClient, type FakeSocket } from './fakeSocket.ts';
import { mockApi, type Handler } from './render.tsx';

export function renderLive(path: string, user: User | null, handlers: Record<string, Handler>) {
  window.scrollTo = () => undefined;
  const api = mockApi({ 'GET /api/auth/': { body: { user } }, 'GET /api/favorites/': { body: { pins: [] } }, ...handlers });
  const store = createStore();
  const { sockets } = startFakeLiveClient(store);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  followNavigation(store, router);
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  const socket = async () => {
    await waitFor(() => expect(sockets.length).toBeGreaterThan(0));
    return sockets.at(-1) as FakeSocket;
  };
  return { api, store, router, socket, sockets };
}
