// notification, sync.done, commands.catalog, status: frames that leave a small trace in the DB.
import { command, finite, id, isObject, int, str } from '../../protocol/guards';
import { setSetting } from '../models/settings';
import { setCursor } from '../models/sync';
import { addToast } from '../models/toasts';
import type { CommandInfo } from '../../protocol';
import { laneOf } from '../../protocol/lanes';
import type { Handler } from './types';

export const notification: Handler = async (db, frame, ctx) => {
  const p = frame.payload;
  const title = str(p.title);
  const body = str(p.body);
  if (title === undefined && body === undefined) return;
  const ts = finite(p.ts);
  const toast = { kind: id(p.kind) ?? 'generic', title: title ?? '', body: body ?? '', ts: ts ?? ctx.now };
  const lane = laneOf(frame);
  // A replayed notification was shown when it happened, or is stale by now: recorded, never shown.
  await addToast(db, lane === undefined ? toast : { ...toast, lane }, ts !== undefined, ctx.replay === true);
};

export const syncDone: Handler = async (db, frame, ctx) => {
  const cursor = int(frame.payload.cursor);
  if (ctx.gateway === undefined || cursor === undefined) return;
  await setCursor(db, ctx.gateway, cursor);
};

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
