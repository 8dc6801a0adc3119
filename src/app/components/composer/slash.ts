// Slash-command autocomplete logic, apart from the DOM: when the menu applies, and what picking does.
import type { CommandInfo } from '../../../protocol';

/** The command being typed ("/", "/ch") when the text is only that; otherwise undefined (menu closed). */
export function slashPrefix(text: string): string | undefined {
  return /^\/[^\s/]*$/.test(text) ? text : undefined;
}

/** The command's name as typed, with one leading slash. */
export function commandText(command: CommandInfo): string {
  return '/' + command.name.replace(/^\/+/, '');
}

/** The composer's text after picking a command: the command and a space, ready for its arguments. */
export function pickCommand(command: CommandInfo): string {
  return commandText(command) + ' ';
}

/** Moves the active option by `delta`, wrapping around; -1 means none active. */
export function moveActive(active: number, delta: number, count: number): number {
  if (count === 0) return -1;
  if (active < 0) return delta > 0 ? 0 : count - 1;
  return (active + delta + count) % count;
}

/** Well-formed commands only (the list comes from the gateway or its cached catalog). */
export function cleanCommands(list: readonly unknown[]): CommandInfo[] {
  const out: CommandInfo[] = [];
  const seen = new Set<string>();
  for (const item of list) {
    if (!item || typeof item !== 'object') continue;
    const c = item as Record<string, unknown>;
    if (typeof c.name !== 'string' || c.name.replace(/^\/+/, '') === '') continue;
    const key = c.name.replace(/^\/+/, '');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      name: c.name,
      ...(typeof c.description === 'string' && { description: c.description }),
      ...(typeof c.args_hint === 'string' && { args_hint: c.args_hint }),
    });
  }
  return out;
}
