// How message times read: "14:05" beside a message, "Today" / "Yesterday" / a date between days.

/**
 * A formatter made on first use: each costs a few ms to make (tens under a slow CPU), and the lane head
 * (LaneHead.ts), painted before the rest of the app is evaluated, needs only the time of day.
 */
function formatter(options: Intl.DateTimeFormatOptions): () => Intl.DateTimeFormat {
  let made: Intl.DateTimeFormat | undefined;
  return () => (made ??= new Intl.DateTimeFormat(undefined, options));
}
// The locale's own form ("7:46 AM", "07:46" where the locale writes it so), not a forced leading zero.
const timeFormat = formatter({ hour: 'numeric', minute: '2-digit' });
const dateFormat = formatter({ weekday: 'long', day: 'numeric', month: 'long' });
const dateYearFormat = formatter({ day: 'numeric', month: 'long', year: 'numeric' });
const fullFormat = formatter({ dateStyle: 'full', timeStyle: 'short' });
const shortDayFormat = formatter({ day: 'numeric', month: 'short' });
const shortDateFormat = formatter({ dateStyle: 'medium' });

/** Makes the time-of-day formatter ahead of the first message's time (see warmTimeFormats and boot.ts). */
export const prepareTimeFormat = (): void => void timeFormat();

/**
 * The first Intl object a page makes loads the browser's locale data: 35–90 ms in one task in Chromium
 * (measured on a 2-core machine), paid by the first message shown (its time) in a lane opened empty.
 * These steps, each a task of its own at an idle moment, pay it in parts beforehand: resolving the
 * locale, then number formatting (the "Show all N lines" counts), then the two formats every message
 * row uses (a few ms each once the data is in).
 */
export const warmTimeFormats: readonly (() => void)[] = [
  () => void new Intl.Locale(navigator.language || 'en').maximize(),
  () => void (1000).toLocaleString('en-US'),
  prepareTimeFormat,
  () => void fullFormat(),
];

/** The start (ms) of the local day `ts` falls in. */
export function startOfDay(ts: number): number {
  const d = new Date(ts);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

export function sameDay(a: number, b: number): boolean {
  return startOfDay(a) === startOfDay(b);
}

/**
 * Whether a row of the conversation (a message or a question's card) at `ts` gets the day's line above it:
 * when its day differs from the row's before it (`before`: that row's time, unknown while it loads), or,
 * with no row before it (`before` undefined), when nothing older can come above it (`atStart`).
 */
export function startsDay(ts: number, before: { ts: number | undefined } | undefined, atStart: boolean): boolean {
  if (!before) return atStart;
  return before.ts !== undefined && !sameDay(before.ts, ts);
}

/** Texts formatted before, per time: a scrolled lane mounts every row again, and each row formats its time three times. */
const REMEMBERED = 2_000;

function remembered(format: (ts: number) => string): (ts: number) => string {
  const known = new Map<number, string>();
  return (ts) => {
    let text = known.get(ts);
    if (text === undefined) {
      if (known.size >= REMEMBERED) known.clear();
      known.set(ts, (text = format(ts)));
    }
    return text;
  };
}

/** "14:05" beside a message (a time that is not a number: nothing). */
export const formatTime = remembered((ts) => (Number.isFinite(ts) ? timeFormat().format(ts) : ''));

export const formatFull = remembered((ts) => (Number.isFinite(ts) ? fullFormat().format(ts) : ''));

/** The machine-readable time of a `<time>` element (empty when the time is not a number). */
export const isoTime = remembered((ts) => (Number.isFinite(ts) ? new Date(ts).toISOString() : ''));

/** A short date that fits beside a lane's name on a phone (a search hit): the time today, the day this year, else the date. */
export function shortWhen(ts: number, now = Date.now()): string {
  if (!Number.isFinite(ts)) return '';
  if (sameDay(ts, now)) return formatTime(ts);
  const sameYear = new Date(ts).getFullYear() === new Date(now).getFullYear();
  return (sameYear ? shortDayFormat : shortDateFormat)().format(ts);
}

/** The label of a day separator. */
export function dayLabel(ts: number, now = Date.now()): string {
  if (!Number.isFinite(ts)) return '';
  const day = startOfDay(ts);
  const today = startOfDay(now);
  if (day === today) return 'Today';
  const yesterday = new Date(today);
  yesterday.setDate(yesterday.getDate() - 1);
  if (day === yesterday.getTime()) return 'Yesterday';
  const sameYear = new Date(ts).getFullYear() === new Date(now).getFullYear();
  return (sameYear ? dateFormat : dateYearFormat)().format(ts);
}

/** "4.2 s", "350 ms", "2 min 5 s": a tool's duration. The gateway sends seconds. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '';
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 60) return `${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s`;
  const m = Math.floor(seconds / 60);
  return `${m} min ${Math.round(seconds - m * 60)} s`;
}
