import { act, cleanup, render, screen } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { liveStatusAtom } from '../state/atoms.ts';
import { LIVE_PAUSED_TEXT, LiveIndicator } from './LiveIndicator.tsx';

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
});
