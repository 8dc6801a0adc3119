import { createRoot } from 'solid-js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dayLabel } from './time';
import { useToday } from './today';

describe('useToday', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] }));
  afterEach(() => vi.useRealTimers());

  /** The day signal in its own root, and a day line's label of `ts` against it. */
  function watch() {
    return createRoot((dispose) => {
      const today = useToday();
      return { label: (ts: number) => dayLabel(ts, today()), dispose };
    });
  }

  it('moves on at local midnight: what was Today reads Yesterday, and the new day Today', () => {
    vi.setSystemTime(new Date(2026, 11, 6, 23, 59, 30));
    const lateSunday = new Date(2026, 11, 6, 23, 57).getTime();
    const earlyMonday = new Date(2026, 11, 7, 0, 0, 40).getTime();
    const { label, dispose } = watch();
    expect(label(lateSunday)).toBe('Today');
    expect(label(earlyMonday)).not.toMatch(/Today|Yesterday/);
    vi.advanceTimersByTime(29_000);
    expect(label(lateSunday)).toBe('Today');
    vi.advanceTimersByTime(2_000);
    expect(label(lateSunday)).toBe('Yesterday');
    expect(label(earlyMonday)).toBe('Today');
    // And again the next night (the timer is set anew for each midnight).
    vi.advanceTimersByTime(24 * 3_600_000);
    expect(label(lateSunday)).not.toMatch(/Today|Yesterday/);
    expect(label(earlyMonday)).toBe('Yesterday');
    dispose();
  });

  it('sees a day passed while its timer could not fire (a sleeping phone) when the page is shown', () => {
    vi.setSystemTime(new Date(2026, 11, 6, 22, 0));
    const sunday = new Date(2026, 11, 6, 21, 0).getTime();
    const { label, dispose } = watch();
    // The clock moves on, the timer does not run.
    vi.setSystemTime(new Date(2026, 11, 7, 7, 0));
    expect(label(sunday)).toBe('Today');
    document.dispatchEvent(new Event('visibilitychange'));
    expect(label(sunday)).toBe('Yesterday');
    dispose();
  });

  it('stops its timer when its owner goes', () => {
    vi.setSystemTime(new Date(2026, 11, 6, 23, 0));
    const { dispose } = watch();
    expect(vi.getTimerCount()).toBe(1);
    dispose();
    expect(vi.getTimerCount()).toBe(0);
  });
});
