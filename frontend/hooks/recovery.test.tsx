// Loads that failed come back by themselves when the connection returns (docs/paging.md): a list's
// next page and page one, a screen's data (useLoad), a card's picture (PinImage); each failure says
// what happened in words.
import { act, fireEvent, render, renderHook, screen, waitFor } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, unreachable } from '../api/client.ts';
import { PinImage } from '../components/PinImage.tsx';
import { loadFirstPage, loadNextPage, type ListSource } from '../state/list-loader.ts';
import { getList, showList } from '../state/lists.ts';
import { OFFLINE_TEXT } from '../state/load-failure.ts';
import { useLoad } from './useLoad.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

/** The browser says it is offline until `back()`, which also fires `online`. */
function goOffline(): { back: () => void } {
  const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
  return {
    back: () => {
      onLine.mockReturnValue(true);
      act(() => void window.dispatchEvent(new Event('online')));
    },
  };
}

/** A list of 1..n split in pages of 2, whose fetches fail while `down`. */
function source(key: string, n: number) {
  const state = { down: false, calls: 0 };
  const list: ListSource<number> = {
    key,
    async fetchPage(cursor) {
      state.calls += 1;
      if (state.down) throw unreachable();
      const start = cursor === null ? 0 : Number(cursor);
      const items = Array.from({ length: n }, (_, i) => i + 1).slice(start, start + 2);
      return { items, nextCursor: start + 2 < n ? String(start + 2) : null };
    },
    keep: () => undefined,
    idOf: (id) => id,
  };
  return { list, state };
}

describe('a list whose page failed offline', () => {
  it('says so, and fetches the page again when the browser is back online', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const store = createStore();
    const { list, state } = source('recovery:next', 5);
    const release = showList(list.key);
    await loadFirstPage(store, list);
    const offline = goOffline();
    state.down = true;
    await loadNextPage(store, list);
    expect(getList(store, list.key)).toMatchObject({ ids: [1, 2], status: 'error', failure: { offline: true, message: OFFLINE_TEXT } });
    state.down = false;
    offline.back();
    await waitFor(() => expect(getList(store, list.key)).toMatchObject({ ids: [1, 2, 3, 4], status: 'ready' }));
    expect(getList(store, list.key).failure).toBeUndefined();
    release();
  });

  it('page one too; a list no screen shows any more is not fetched again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const store = createStore();
    const shown = source('recovery:first', 3);
    const gone = source('recovery:gone', 3);
    const release = showList(shown.list.key);
    const offline = goOffline();
    shown.state.down = true;
    gone.state.down = true;
    await loadFirstPage(store, shown.list);
    await loadFirstPage(store, gone.list);
    shown.state.down = false;
    gone.state.down = false;
    offline.back();
    await waitFor(() => expect(getList(store, shown.list.key)).toMatchObject({ ids: [1, 2], status: 'ready' }));
    expect(gone.state.calls).toBe(1);
    expect(getList(store, gone.list.key).status).toBe('error');
    release();
  });

  it("keeps the server's words for a failure that was not the network's", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const store = createStore();
    const list: ListSource<number> = {
      key: 'recovery:server',
      fetchPage: () => Promise.reject(new ApiError(503, { message: 'Pinboard is busy; try again in a minute.', errors: [], fields: {} })),
      keep: () => undefined,
      idOf: (id) => id,
    };
    await loadFirstPage(store, list);
    expect(getList(store, list.key)).toMatchObject({ status: 'error', failure: { offline: false, message: 'Pinboard is busy; try again in a minute.' } });
  });
});

describe('useLoad', () => {
  it('reports an offline failure in words and loads again by itself when back online', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const store = createStore();
    const wrapper = ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>;
    const offline = goOffline();
    let down = true;
    const load = vi.fn(async () => {
      if (down) throw unreachable();
    });
    const { result } = renderHook(() => useLoad(load, 'recovery-pin'), { wrapper });
    await waitFor(() => expect(result.current.status).toBe('error'));
    expect(result.current.failure).toEqual({ offline: true, message: OFFLINE_TEXT });
    down = false;
    offline.back();
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(result.current.failure).toBeUndefined();
    expect(load).toHaveBeenCalledTimes(2);
  });
});

describe('PinImage', () => {
  it('asks again for a picture that failed once the connection returns; one that fails again waits for the next return', async () => {
    render(<PinImage src="https://pictures.example/kite.jpg" alt="A kite" aspect={1} />);
    const offline = goOffline();
    fireEvent.error(screen.getByRole('img', { name: 'A kite' }));
    expect(screen.getByRole('img', { name: 'A kite' }).getAttribute('data-image-state')).toBe('failed');
    offline.back();
    await waitFor(() => expect(screen.getByRole('img', { name: 'A kite' }).tagName).toBe('IMG'));
    // Really missing: it fails again and keeps its fallback, without being asked for again.
    fireEvent.error(screen.getByRole('img', { name: 'A kite' }));
    expect(screen.getByRole('img', { name: 'A kite' }).getAttribute('data-image-state')).toBe('failed');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByRole('img', { name: 'A kite' }).tagName).toBe('DIV');
  });

  it('never asks for an address it refused', () => {
    render(<PinImage src="/api/auth/logout" alt="Refused" />);
    const fallback = screen.getByRole('img', { name: 'Refused' });
    expect(fallback.getAttribute('data-image-state')).toBe('refused');
    act(() => void window.dispatchEvent(new Event('online')));
    expect(screen.getByRole('img', { name: 'Refused' }).getAttribute('data-image-state')).toBe('refused');
  });
});
