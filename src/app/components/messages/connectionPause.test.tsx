import { createRoot, createSignal } from 'solid-js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConnectionState } from '../../../client';
import { PAUSED_TEXT, PAUSED_UNPAIRED_TEXT, PAUSE_AFTER_MS, createConnectionPause } from './connectionPause';

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
    expect(paused()).toBeUndefined();
    vi.advanceTimersByTime(1);
    expect(paused()).toBe(PAUSED_TEXT);
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
    expect(paused()).toBeUndefined();
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
    expect(paused()).toBe(PAUSED_TEXT);
    dispose();
  });

  it('ends at once when the connection is back', () => {
    const { paused, setState, dispose } = pauseOver('offline');
    vi.advanceTimersByTime(PAUSE_AFTER_MS);
    expect(paused()).toBe(PAUSED_TEXT);
    setState('online');
    expect(paused()).toBeUndefined();
    dispose();
  });

  it('says to pair again when the gateway refused this device, where waiting would not help', () => {
    const { paused, setState, dispose } = pauseOver('online');
    setState('offline');
    vi.advanceTimersByTime(PAUSE_AFTER_MS);
    expect(paused()).toBe(PAUSED_TEXT);
    setState('auth-failed');
    expect(paused()).toBe(PAUSED_UNPAIRED_TEXT);
    dispose();
  });
});
