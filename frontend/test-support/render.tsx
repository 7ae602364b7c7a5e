// Shared helpers for the component tests: a fake `fetch` (and XMLHttpRequest, for uploads) that
// answers like the REST contract, and a renderer that mounts the real route table in a memory
// router with a fresh Jotai store.
import { cleanup, render } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { createStore, Provider } from 'jotai';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { afterEach, vi } from 'vitest';
import { MSG, type Board, type Comment, type Pin, type User } from '../../contract/index.ts';
import { routes as appRoutes } from '../routes.tsx';
import { followNavigation } from '../state/toasts.ts';
import { fakeXhrClass, type XhrCall } from './fakeXhr.ts';
import { installObjectUrlShim, resetObjectUrls } from './files.ts';
import { installLayoutShim, setTestLayout } from './layout.ts';

installLayoutShim();
installObjectUrlShim();

afterEach(() => {
  cleanup();
  setTestLayout({ width: 992, cardHeight: 0 }); // four 236 px columns
  resetObjectUrls();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
  document.cookie.split(';').forEach((c) => {
    const name = c.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  });
});

/**
 * One request as a handler sees it. `body` is the parsed JSON, or the FormData of a multipart
 * upload; `progress` (uploads, which go through XMLHttpRequest) fires upload progress events.
 */
export type Call = XhrCall;
export type Reply = { status?: number; body?: unknown; headers?: Record<string, string> };
export type Handler = Reply | ((call: Call) => Reply | Promise<Reply>);

export function errorBody(message: string, errors: string[] = [message], fields: Record<string, string> = {}) {
  return { message, errors, fields };
}

/**
 * Installs a fake fetch and XMLHttpRequest. Keys are "METHOD /path"; unknown calls answer 404 in
 * the error shape.
 */
export function mockApi(handlers: Record<string, Handler>) {
  const calls: Call[] = [];
  async function answer(call: Call): Promise<Reply> {
    calls.push(call);
    const handler = handlers[`${call.method} ${call.path}`];
    return handler === undefined ? { status: 404, body: errorBody('Not found') } : typeof handler === 'function' ? await handler(call) : handler;
  }
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const headers = Object.fromEntries(Object.entries((init?.headers ?? {}) as Record<string, string>));
    const reply = await answer({ method, path: url.pathname, query: url.searchParams, body: init?.body ? JSON.parse(String(init.body)) : undefined, headers });
    return new Response(reply.body === undefined ? '' : JSON.stringify(reply.body), {
      status: reply.status ?? 200,
      headers: { 'Content-Type': 'application/json', ...reply.headers },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('XMLHttpRequest', fakeXhrClass(answer));
  return { calls, fetchMock, sent: (method: string, path?: string) => calls.filter((c) => c.method === method && (path === undefined || c.path === path)) };
}

/**
 * A handler that serves `items` page by page like the server (docs/paging.md): `{[key]: page,
 * nextCursor}`, `size` per page (or the call's `limit`), cursors "after:<n>"; any other cursor
 * answers 400 in the error shape. `items` may be a function, read at each call (a list that
 * changes); `extra` adds fields (a board page's name and count).
 */
export function pagedReply<T>(key: string, items: readonly T[] | (() => readonly T[]), size = 50, extra: (call: Call) => object = () => ({})): (call: Call) => Reply {
  return (call) => {
    const all = typeof items === 'function' ? items() : items;
    const cursor = call.query.get('cursor');
    const match = cursor === null ? ['', '0'] : /^after:([0-9]+)$/.exec(cursor);
    if (!match) return { status: 400, body: errorBody(MSG.cursorInvalid, [MSG.cursorInvalid], { cursor: MSG.cursorInvalid }) };
    const start = Number(match[1]);
    const limit = Number(call.query.get('limit') ?? size);
    const end = start + limit;
    return { body: { ...extra(call), [key]: all.slice(start, end), nextCursor: end < all.length ? `after:${end}` : null } };
  };
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
  followNavigation(store, router); // as main.tsx does
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
    tags: [],
    user_id: owner.id,
    user: { id: owner.id, username: owner.username },
    image: null,
    likes_count: 0,
    created_at: new Date(Date.UTC(2025, 0, id)).toISOString(),
    updated_at: new Date(Date.UTC(2025, 0, id)).toISOString(),
    source_url: null,
    visibility: 'public',
    alt_text: null,
    ...extra,
  };
}

export function makeBoard(id: number, pins: Pin[] = [], owner: User = alice, name = `Board ${id}`): Board {
  return {
    id,
    name,
    user_id: owner.id,
    pin_count: pins.length,
    pins: pins.map((p) => ({ id: p.id, title: p.title, image_url: p.image_url, image: p.image })),
    role: 'owner',
    visibility: 'private',
    members: [{ id: owner.id, username: owner.username }],
    member_count: 1,
  };
}

export function makeComment(id: number, pinId: number, author: User, text: string, createdAt: string): Comment {
  return { id, text, pin_id: pinId, user_id: author.id, username: author.username, created_at: createdAt, updated_at: createdAt };
}

/**
 * The pin ids of the grid's laid-out cards in reading order (row by row, left to right), as the
 * masonry placed them; cells still being measured (hidden, not placed yet) are left out.
 */
export function gridCardIds(root: ParentNode = document): number[] {
  return Array.from(root.querySelectorAll<HTMLElement>('.masonry__items > [role="listitem"]'))
    .filter((cell) => cell.style.visibility !== 'hidden' && cell.querySelector('[data-pin-id]'))
    .map((cell) => ({ id: Number(cell.querySelector('[data-pin-id]')?.getAttribute('data-pin-id')), top: parseFloat(cell.style.top), left: parseFloat(cell.style.left) }))
    .sort((a, b) => a.top - b.top || a.left - b.left)
    .map((cell) => cell.id);
}
