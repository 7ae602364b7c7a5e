// The connection's return (docs/paging.md, docs/images.md): what waits is tried once per return
// (the browser's `online`, or the live socket connecting again after a drop), loads at once and
// images one after another; a failure that waits again is tried at the next return, never in a loop.
import { createStore } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { liveStatusAtom } from './atoms.ts';
import { retryWhenBack, SAME_RETURN_MS, STAGGER_MS } from './connection-return.ts';
import { describeFailure, LOAD_FAILED_TEXT, OFFLINE_TEXT } from './load-failure.ts';
import { ApiError } from '../api/client.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const online = () => window.dispatchEvent(new Event('online'));

describe('retryWhenBack', () => {
  it('tries each waiter once when the browser comes back online: loads at once, images spread out', () => {
    const store = createStore();
    const tried: string[] = [];
    retryWhenBack(store, 'list', () => tried.push('list'));
    retryWhenBack(store, 'a', () => tried.push('a'), 'image');
    retryWhenBack(store, 'b', () => tried.push('b'), 'image');
    retryWhenBack(store, 'c', () => tried.push('c'), 'image');
    expect(tried).toEqual([]);
    online();
    expect(tried).toEqual(['list']);
    vi.advanceTimersByTime(0);
    expect(tried).toEqual(['list', 'a']);
    vi.advanceTimersByTime(STAGGER_MS);
    expect(tried).toEqual(['list', 'a', 'b']);
    vi.advanceTimersByTime(STAGGER_MS);
    expect(tried).toEqual(['list', 'a', 'b', 'c']);
    // Once per return: nothing more without another one.
    vi.advanceTimersByTime(SAME_RETURN_MS * 5);
    online();
    expect(tried).toHaveLength(4);
  });

  it('tries again at the live socket reconnecting after a drop, not at its first connect', () => {
    const store = createStore();
    const retry = vi.fn();
    store.set(liveStatusAtom, 'connecting');
    retryWhenBack(store, 'x', retry);
    store.set(liveStatusAtom, 'connected');
    expect(retry).not.toHaveBeenCalled();
    store.set(liveStatusAtom, 'paused');
    store.set(liveStatusAtom, 'connected');
    expect(retry).toHaveBeenCalledTimes(1);
  });

  it('makes one wave of `online` and the reconnect that follows it', () => {
    const store = createStore();
    store.set(liveStatusAtom, 'paused');
    const retry = vi.fn(() => void retryWhenBack(store, 'x', retry)); // fails again at once
    retryWhenBack(store, 'x', retry);
    online();
    store.set(liveStatusAtom, 'connected');
    expect(retry).toHaveBeenCalledTimes(1);
    // A later return tries it again.
    vi.advanceTimersByTime(SAME_RETURN_MS);
    online();
    expect(retry).toHaveBeenCalledTimes(2);
  });

  it('forgets a cancelled waiter, even in the middle of a wave, and a newer wait replaces an older one', () => {
    const store = createStore();
    const first = vi.fn();
    const second = vi.fn();
    const cancelled = vi.fn();
    retryWhenBack(store, 'same', first);
    retryWhenBack(store, 'same', second);
    retryWhenBack(store, 'img1', vi.fn(), 'image');
    const cancel = retryWhenBack(store, 'img2', cancelled, 'image');
    online();
    cancel();
    vi.advanceTimersByTime(STAGGER_MS * 4);
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledTimes(1);
    expect(cancelled).not.toHaveBeenCalled();
  });

  it('stops listening once nothing waits', () => {
    const store = createStore();
    const remove = vi.spyOn(window, 'removeEventListener');
    const cancel = retryWhenBack(store, 'x', vi.fn());
    cancel();
    expect(remove).toHaveBeenCalledWith('online', expect.any(Function));
  });
});

describe('describeFailure', () => {
  it("says the reader is offline when the browser has no network, else the server's words", () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get');
    onLine.mockReturnValue(false);
    expect(describeFailure(new ApiError(0, { message: 'The server could not be reached.', errors: [], fields: {} }))).toEqual({ offline: true, message: OFFLINE_TEXT });
    onLine.mockReturnValue(true);
    expect(describeFailure(new ApiError(503, { message: 'The service is busy.', errors: [], fields: {} }))).toEqual({ offline: false, message: 'The service is busy.' });
    expect(describeFailure(new TypeError('bad JSON'))).toEqual({ offline: false, message: LOAD_FAILED_TEXT });
  });
});
