import { describe, expect, it } from 'vitest';
import { dayLabel, formatDuration, sameDay } from './time';

describe('dayLabel', () => {
  const now = new Date(2026, 10, 30, 10, 0).getTime();
  it('says Today and Yesterday by calendar day, not by 24 hours', () => {
    expect(dayLabel(new Date(2026, 10, 30, 0, 1).getTime(), now)).toBe('Today');
    expect(dayLabel(new Date(2026, 10, 29, 23, 59).getTime(), now)).toBe('Yesterday');
    expect(dayLabel(new Date(2026, 10, 29, 0, 0).getTime(), now)).toBe('Yesterday');
  });
  it('names older days by date, with the year only when it differs', () => {
    const older = dayLabel(new Date(2026, 10, 3, 12).getTime(), now);
    expect(older).toMatch(/\b3\b/);
    expect(older).not.toMatch(/2026/);
    expect(dayLabel(new Date(2025, 0, 2, 12).getTime(), now)).toMatch(/2025/);
  });
  it('copes with a missing time', () => {
    expect(dayLabel(Number.NaN, now)).toBe('');
  });
});

describe('sameDay', () => {
  it('compares calendar days', () => {
    expect(sameDay(new Date(2026, 0, 1, 0, 0).getTime(), new Date(2026, 0, 1, 23, 59).getTime())).toBe(true);
    expect(sameDay(new Date(2026, 0, 1, 23, 59).getTime(), new Date(2026, 0, 2, 0, 0).getTime())).toBe(false);
  });
});

describe('formatDuration', () => {
  it('reads like a person would say it (the gateway sends seconds)', () => {
    expect(formatDuration(0.012)).toBe('12 ms');
    expect(formatDuration(2.5)).toBe('2.5 s');
    expect(formatDuration(42)).toBe('42 s');
    expect(formatDuration(125)).toBe('2 min 5 s');
  });
  it('shows nothing for nonsense', () => {
    expect(formatDuration(-1)).toBe('');
    expect(formatDuration(Number.NaN)).toBe('');
  });
});
