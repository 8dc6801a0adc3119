// commands.catalog and commands.complete over an agent's command list (both agents answer them alike).
import type { CommandInfo, CommandsCatalogFrame, CommandsCompleteFrame } from '../../src/protocol';

export function catalogFrame(commands: readonly CommandInfo[]): CommandsCatalogFrame {
  return { v: 1, type: 'commands.catalog', payload: { commands: commands.map((c) => ({ ...c })) } };
}

/** Commands whose name starts with the prefix (a leading "/" is optional). */
export function completeFrame(commands: readonly CommandInfo[], rawPrefix: unknown): CommandsCompleteFrame {
  const prefix = typeof rawPrefix === 'string' ? rawPrefix.slice(0, 100) : '';
  const bare = prefix.replace(/^\//, '').toLowerCase();
  const matches = commands
    .filter((c) => c.name.startsWith(bare))
    .map(({ name, description, args_hint }) => ({ name, description, args_hint }));
  return { v: 1, type: 'commands.complete', payload: { prefix, matches } };
}
