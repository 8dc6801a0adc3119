import { describe, expect, it } from 'vitest';
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
});
