// Who a message is from, as a person reads it.
import type { Role } from '../../../protocol';

export function authorName(role: Role): string {
  switch (role) {
    case 'user':
      return 'You';
    case 'assistant':
      return 'Hermes';
    case 'cron':
      return 'Reminder';
    case 'system':
      return 'System';
    default:
      return 'Unknown';
  }
}

/** The first non-empty line of a text, shortened: what a quote shows. */
export function firstLine(text: string, max = 120): string {
  const line =
    text
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
