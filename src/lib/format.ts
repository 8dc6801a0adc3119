// Sizes and durations in the words people read.

/** 1536 → "1.5 KB", 26214400 → "25 MB" (powers of 1024, at most one decimal). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = value >= 10 ? Math.round(value) : Math.round(value * 10) / 10;
  // 1023.9 KB would print as "1024 KB": step up instead.
  if (shown >= 1024 && unit < units.length - 1) return `1 ${units[unit + 1]}`;
  return `${shown} ${units[unit]}`;
}

/** Seconds as m:ss (h:mm:ss from an hour); "" when unknown. */
export function formatDuration(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '';
  const total = Math.floor(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** Why a file cannot be sent, with its size and the limit in words. */
export function tooLargeText(filename: string, size: number, limit: number): string {
  return `“${filename}” is ${formatBytes(size)}; attachments can be at most ${formatBytes(limit)}.`;
}

/**
 * The gateway refused a file as too large (`media_too_large`): its size and, when the gateway's
 * message names it, the limit. Only the digits of that untrusted message are used.
 */
export function gatewayTooLargeText(filename: string, size: number, detail: string): string {
  const limit = /limit is (\d{1,15})\b/.exec(detail)?.[1] ?? /(\d{1,15})-byte limit/.exec(detail)?.[1];
  if (limit !== undefined)
    return `“${filename}” is ${formatBytes(size)}; the gateway accepts files of at most ${formatBytes(Number(limit))}.`;
  return `“${filename}” is ${formatBytes(size)}, more than the gateway accepts.`;
}
