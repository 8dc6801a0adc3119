// sync.done: the end of a sync replay (spec README §8) moves the gateway's stored cursor.
import { int } from '../../protocol/guards';
import { setCursor } from '../models/sync';
import type { Handler } from './types';

export const syncDone: Handler = async (db, frame, ctx) => {
  const cursor = int(frame.payload.cursor);
  if (ctx.gateway === undefined || cursor === undefined) return;
  await setCursor(db, ctx.gateway, cursor);
};
