import { describe, expect, it } from 'vitest';
import { dayLabel, formatDuration, formatFull, formatTime, isoTime, sameDay, shortWhen, startsDay } from './time';

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

describe('shortWhen', () => {
  const now = new Date(2026, 10, 30, 10, 0).getTime();
  it('is the time today, the day this year, and the date with its year before', () => {
    const today = new Date(2026, 10, 30, 8, 5).getTime();
    expect(shortWhen(today, now)).toBe(formatTime(today));
    const thisYear = shortWhen(new Date(2026, 2, 7, 12).getTime(), now);
    expect(thisYear).toMatch(/\b7\b/);
    expect(thisYear).not.toMatch(/2026/);
    expect(shortWhen(new Date(2025, 2, 7, 12).getTime(), now)).toMatch(/2025/);
    expect(shortWhen(Number.NaN, now)).toBe('');
  });
});

describe('sameDay', () => {
  it('compares calendar days', () => {
    expect(sameDay(new Date(2026, 0, 1, 0, 0).getTime(), new Date(2026, 0, 1, 23, 59).getTime())).toBe(true);
    expect(sameDay(new Date(2026, 0, 1, 23, 59).getTime(), new Date(2026, 0, 2, 0, 0).getTime())).toBe(false);
  });
});

describe('startsDay', () => {
  const at = (day: number, hour: number) => new Date(2026, 0, day, hour).getTime();
  it('starts a day at a row of another day than the row before, not at one of its day or before it is read', () => {
    expect(startsDay(at(2, 9), { ts: at(1, 23) }, false)).toBe(true);
    expect(startsDay(at(2, 9), { ts: at(2, 1) }, true)).toBe(false);
    expect(startsDay(at(2, 9), { ts: undefined }, true)).toBe(false);
  });
  it('starts one at the first row only when nothing older can come above it', () => {
    expect(startsDay(at(2, 9), undefined, true)).toBe(true);
    expect(startsDay(at(2, 9), undefined, false)).toBe(false);
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

describe('formatTime, formatFull, isoTime', () => {
  const ts = new Date(2026, 10, 30, 14, 5).getTime();
  it('read as the locale writes them, the same each time they are asked (remembered)', () => {
    const time = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' }).format(ts);
    expect(formatTime(ts)).toBe(time);
    expect(formatTime(ts)).toBe(time);
    expect(formatTime(ts + 60_000)).not.toBe(time);
    expect(formatFull(ts)).toBe(
      new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'short' }).format(ts),
    );
    expect(isoTime(ts)).toBe(new Date(ts).toISOString());
  });
  it('stay right past the number of times they remember', () => {
    for (let i = 0; i < 2_500; i++) formatTime(ts + i * 60_000);
    expect(formatTime(ts)).toBe(new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' }).format(ts));
  });
  it('show nothing for a time that is not a number', () => {
    expect(formatTime(Number.NaN)).toBe('');
    expect(isoTime(Number.NaN)).toBe('');
  });
});
