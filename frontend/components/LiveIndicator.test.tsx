import { act, cleanup, render, screen } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { liveStatusAtom } from '../state/atoms.ts';
import { LIVE_PAUSED_TEXT, LiveIndicator, OFFLINE_TEXT } from './LiveIndicator.tsx';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('connection indicator', () => {
  it('shows only while paused for a second or more, never on first load', () => {
    vi.useFakeTimers();
    const store = createStore();
    render(
      <Provider store={store}>
        <LiveIndicator />
      </Provider>,
    );
    const region = screen.getByRole('status');
    act(() => store.set(liveStatusAtom, 'connecting'));
    act(() => vi.advanceTimersByTime(5000));
    expect(region.textContent).toBe('');
    act(() => store.set(liveStatusAtom, 'connected'));
    act(() => store.set(liveStatusAtom, 'paused'));
    act(() => vi.advanceTimersByTime(900));
    expect(region.textContent).toBe(''); // a blip
    act(() => store.set(liveStatusAtom, 'connected'));
    act(() => vi.advanceTimersByTime(500));
    expect(region.textContent).toBe('');
    act(() => store.set(liveStatusAtom, 'paused'));
    act(() => vi.advanceTimersByTime(1000));
    expect(region.textContent).toBe(LIVE_PAUSED_TEXT);
    act(() => store.set(liveStatusAtom, 'connected'));
    expect(region.textContent).toBe('');
  });

  it('says at once that the browser is offline, and nothing once it is back', () => {
    const store = createStore();
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    render(
      <Provider store={store}>
        <LiveIndicator />
      </Provider>,
    );
    const region = screen.getByRole('status');
    expect(region.textContent).toBe('');
    online.mockReturnValue(false);
    act(() => void window.dispatchEvent(new Event('offline')));
    expect(region.textContent).toBe(OFFLINE_TEXT);
    online.mockReturnValue(true);
    act(() => void window.dispatchEvent(new Event('online')));
    expect(region.textContent).toBe('');
    online.mockRestore();
  });
});
