import type { PushLog } from './types';

/**
 * Adapts a line logger (the serving process's `log(line)`) to PushLog: `push.webpush.sent origin=… status=201`.
 * Field values are already free of secrets; quoting keeps a value with spaces on one readable line.
 */
export function pushLogToLines(write: (line: string) => void): PushLog {
  return (event, fields = {}) => {
    const parts = Object.entries(fields)
      .filter(([, value]) => value !== undefined)
      .map(
        ([key, value]) =>
          `${key}=${typeof value === 'string' && /[\s"=]/.test(value) ? JSON.stringify(value) : String(value)}`,
      );
    write([event, ...parts].join(' '));
  };
}
