import { createRoot, createSignal } from 'solid-js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConnectionState } from '../../../client';
import { PAUSE_AFTER_MS, createConnectionPause } from './connectionPause';

describe('createConnectionPause', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** A pause over a state signal, in its own root (disposed by the returned function). */
  function pauseOver(initial: ConnectionState) {
    const [state, setState] = createSignal<ConnectionState>(initial);
    return createRoot((dispose) => ({ paused: createConnectionPause(state), setState, dispose }));
  }

  it('is paused once the connection has been down a moment, not at once', () => {
    const { paused, setState, dispose } = pauseOver('online');
    setState('offline');
    vi.advanceTimersByTime(PAUSE_AFTER_MS - 1);
    expect(paused()).toBe(false);
    vi.advanceTimersByTime(1);
    expect(paused()).toBe(true);
    dispose();
  });

  it('is not paused by a reconnect that succeeds at once', () => {
    const { paused, setState, dispose } = pauseOver('online');
    setState('offline');
    vi.advanceTimersByTime(300);
    setState('connecting');
    vi.advanceTimersByTime(300);
    setState('online');
    vi.advanceTimersByTime(PAUSE_AFTER_MS * 3);
    expect(paused()).toBe(false);
    dispose();
  });

  it('counts the wait from the first drop, through reconnect attempts flipping offline and connecting', () => {
    const { paused, setState, dispose } = pauseOver('online');
    setState('offline');
    vi.advanceTimersByTime(600);
    setState('connecting');
    vi.advanceTimersByTime(300);
    setState('offline');
    vi.advanceTimersByTime(100);
    expect(paused()).toBe(true);
    dispose();
  });

  it('ends at once when the connection is back', () => {
    const { paused, setState, dispose } = pauseOver('offline');
    vi.advanceTimersByTime(PAUSE_AFTER_MS);
    expect(paused()).toBe(true);
    setState('online');
    expect(paused()).toBe(false);
    dispose();
  });
});
