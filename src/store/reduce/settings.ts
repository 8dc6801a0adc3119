// commands.catalog and status: frames whose latest value is kept as a setting.
import type { CommandInfo } from '../../protocol';
import { command, id, isObject } from '../../protocol/guards';
import { setSetting } from '../models/settings';
import type { Handler } from './types';

/** Cached for slash autocomplete while offline. */
export const commandsCatalog: Handler = async (db, frame) => {
  const list = frame.payload.commands;
  if (!Array.isArray(list)) return;
  const commands: CommandInfo[] = [];
  for (const item of list) {
    const c = command(item);
    if (c && !commands.some((k) => k.name === c.name)) commands.push(c);
  }
  await setSetting(db, 'commands', commands);
};

export const status: Handler = async (db, frame) => {
  const state = id(frame.payload.state);
  if (state === undefined) return;
  const session = frame.payload.session;
  await setSetting(db, 'gatewayStatus', isObject(session) ? { state, session } : { state });
};
