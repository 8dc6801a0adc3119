// The demo agent's slash commands, as commands.catalog / commands.complete describe them (commandframes.ts).
import type { CommandInfo } from '../../../src/protocol';

export const COMMANDS: readonly CommandInfo[] = [
  { name: 'help', description: 'List what the demo agent can do', args_hint: '', category: 'General' },
  { name: 'model', description: 'Choose the model (model picker)', args_hint: '', category: 'Pickers' },
  { name: 'choose', description: 'Pick a reasoning effort (choice picker)', args_hint: '', category: 'Pickers' },
  { name: 'clarify', description: 'The agent asks a clarifying question', args_hint: '', category: 'Pickers' },
  {
    name: 'approve',
    description: 'The agent asks to run a command (approval)',
    args_hint: '[command]',
    category: 'Pickers',
  },
  { name: 'confirm', description: 'The agent asks for a yes/no confirmation', args_hint: '', category: 'Pickers' },
  {
    name: 'thread',
    description: 'Answer in a new thread the gateway creates',
    args_hint: '<text>',
    category: 'Channels',
  },
  {
    name: 'remind',
    description: 'A cron reminder after a delay',
    args_hint: '<seconds> <text>',
    category: 'Automation',
  },
  { name: 'image', description: 'The agent sends a generated image', args_hint: '', category: 'Media' },
  {
    name: 'think',
    description: 'Reason aloud first, then answer (streamed reasoning)',
    args_hint: '<text>',
    category: 'Demo',
  },
  { name: 'long', description: 'A long streamed reply (to try stop and steer)', args_hint: '', category: 'Demo' },
  {
    name: 'stream',
    description: 'Stream a reply as N updates, with a tool call every 500',
    args_hint: '<updates>',
    category: 'Demo',
  },
  {
    name: 'file',
    description: 'Answer with a code file of N lines, streamed as M updates',
    args_hint: '<lines> [updates]',
    category: 'Demo',
  },
];

/** The command a message starts with, and the rest of its text. */
export function parseCommand(text: string): { name: string; args: string } | undefined {
  const m = /^\/([a-z]+)(?:\s+([\s\S]*))?$/i.exec(text.trim());
  if (!m) return undefined;
  const name = m[1].toLowerCase();
  return COMMANDS.some((c) => c.name === name) ? { name, args: (m[2] ?? '').trim() } : undefined;
}
