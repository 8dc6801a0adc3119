// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDraftWriter, createPageDraftWriter } from './draftWriter';

describe('createDraftWriter', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('writes the last text once the typing pauses', async () => {
    const saved: [string, string][] = [];
    const writer = createDraftWriter(async (lane, text) => void saved.push([lane, text]), 400);
    writer.set('a', 'h');
    writer.set('a', 'he');
    vi.advanceTimersByTime(300);
    writer.set('a', 'hey');
    expect(saved).toEqual([]);
    await vi.advanceTimersByTimeAsync(400);
    expect(saved).toEqual([['a', 'hey']]);
  });

  it('flushes waiting drafts of several lanes at once', async () => {
    const saved: [string, string][] = [];
    const writer = createDraftWriter(async (lane, text) => void saved.push([lane, text]));
    writer.set('a', 'one');
    writer.set('b', 'two');
    await writer.flush();
    expect(saved).toEqual([
      ['a', 'one'],
      ['b', 'two'],
    ]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(saved).toHaveLength(2);
  });

  it('clearing drops a waiting write and empties the draft', async () => {
    const saved: [string, string][] = [];
    const writer = createDraftWriter(async (lane, text) => void saved.push([lane, text]));
    writer.set('a', 'typed');
    await writer.clear('a');
    await vi.advanceTimersByTimeAsync(1000);
    expect(saved).toEqual([['a', '']]);
  });
});

describe('createPageDraftWriter', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const hidePage = () => dispatchEvent(new Event('pagehide'));

  it('writes what waits when the page is hidden, and stops listening once stopped', async () => {
    const saved: [string, string][] = [];
    const writer = createPageDraftWriter(async (lane, text) => void saved.push([lane, text]));
    writer.set('a', 'typed before a reload');
    hidePage();
    await vi.advanceTimersByTimeAsync(0);
    expect(saved).toEqual([['a', 'typed before a reload']]);

    writer.stop();
    writer.set('a', 'typed after');
    hidePage();
    await vi.advanceTimersByTimeAsync(0);
    expect(saved).toHaveLength(1); // the page's events no longer reach it; the pause still writes it
    await vi.advanceTimersByTimeAsync(400);
    expect(saved).toEqual([
      ['a', 'typed before a reload'],
      ['a', 'typed after'],
    ]);
  });
});
