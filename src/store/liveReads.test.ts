import { describe, expect, it, vi } from 'vitest';
import { liveReadsSettled, readsInFlight, readStarted } from './liveReads';

describe('liveReadsSettled', () => {
  it('waits for the reads in flight, and for one that starts from another’s result', async () => {
    const first = readStarted();
    let settled = false;
    const waiting = liveReadsSettled(5_000).then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    // The rows' read starts from the ids' result, before the ids' read has ended.
    const second = readStarted();
    first();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    second();
    await waiting;
    expect(readsInFlight()).toBe(0);
  });

  it('gives up after its bound when a read never ends', async () => {
    const never = readStarted();
    const started = Date.now();
    await liveReadsSettled(60);
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
    never();
  });

  it('resumes its waiter in a task of its own, never in the microtasks of the read that ended', async () => {
    // Past its bound, with the next read started by the one that ended (as the lane's rows from its ids):
    // the waiter returns at once when it runs, so where it runs is where the caller's next write starts.
    const first = readStarted();
    let settled = false;
    const waiting = liveReadsSettled(5_000).then(() => (settled = true));
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now + 10_000);
    try {
      first();
      const second = readStarted();
      for (let i = 0; i < 20; i++) await Promise.resolve();
      expect(settled).toBe(false);
      await waiting;
      second();
    } finally {
      clock.mockRestore();
    }
    expect(readsInFlight()).toBe(0);
  });
});
