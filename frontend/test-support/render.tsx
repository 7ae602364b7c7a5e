// Shared helpers for the component tests: a fake `fetch` that answers like the REST contract, and
// a renderer that mounts the real route table in a memory router with a fresh Jotai store.
import { cleanup, render } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { createStore, Provider } from 'jotai';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { afterEach, vi } from 'vitest';
import type { Board, Comment, Pin, User } from '../../contract/index.ts';
import { routes as appRoutes } from '../routes.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
  document.cookie.split(';').forEach((c) => {
    const name = c.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  });
});

type Call = { method: string; path: string; body: unknown; headers: Record<string, string> };
type Reply = { status?: number; body?: unknown; headers?: Record<string, string> };
export type Handler = Reply | ((call: Call) => Reply | Promise<Reply>);

export function errorBody(message: string, errors: string[] = [message], fields: Record<string, string> = {}) {
  return { message, errors, fields };
}

/** Installs a fake fetch. Keys are "METHOD /path"; unknown calls answer 404 in the error shape. */
export function mockApi(handlers: Record<string, Handler>) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const headers = Object.fromEntries(Object.entries((init?.headers ?? {}) as Record<string, string>));
    const call: Call = { method, path: url.pathname, body: init?.body ? JSON.parse(String(init.body)) : undefined, headers };
    calls.push(call);
    const handler = handlers[`${method} ${url.pathname}`];
    const reply: Reply = handler === undefined ? { status: 404, body: errorBody('Not found') } : typeof handler === 'function' ? await handler(call) : handler;
    return new Response(reply.body === undefined ? '' : JSON.stringify(reply.body), {
      status: reply.status ?? 200,
      headers: { 'Content-Type': 'application/json', ...reply.headers },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock, sent: (method: string, path?: string) => calls.filter((c) => c.method === method && (path === undefined || c.path === path)) };
}

export function renderApp(path: string, options: { handlers?: Record<string, Handler>; user?: User | null; routes?: RouteObject[] } = {}) {
  const { user = null } = options;
  window.scrollTo = () => undefined;
  const api = mockApi({
    'GET /api/auth/': { body: { user } },
    'GET /api/favorites/': { body: { pins: [] } },
    ...options.handlers,
  });
  const store = createStore();
  const router = createMemoryRouter(options.routes ?? appRoutes, { initialEntries: [path] });
  const ui = userEvent.setup();
  const result = render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { ...result, ...api, store, router, ui };
}

// ---- Sample entities ----
export const alice: User = { id: 1, username: 'alice', email: 'alice@example.com' };
export const bob: User = { id: 2, username: 'bob', email: 'bob@example.com', firstName: 'Bobby' };

export function makePin(id: number, owner: User = alice, extra: Partial<Pin> = {}): Pin {
  return {
    id,
    title: `Pin ${id}`,
    image_url: `/seed-images/${id}.svg`,
    description: `About pin ${id}`,
    user_id: owner.id,
    user: { id: owner.id, username: owner.username },
    likes_count: 0,
    created_at: new Date(Date.UTC(2025, 0, id)).toISOString(),
    updated_at: new Date(Date.UTC(2025, 0, id)).toISOString(),
    ...extra,
  };
}

export function makeBoard(id: number, pins: Pin[] = [], owner: User = alice, name = `Board ${id}`): Board {
  return { id, name, user_id: owner.id, pins: pins.map((p) => ({ id: p.id, title: p.title, image_url: p.image_url })) };
}

export function makeComment(id: number, pinId: number, author: User, text: string, createdAt: string): Comment {
  return { id, text, pin_id: pinId, user_id: author.id, username: author.username, created_at: createdAt, updated_at: createdAt };
}
