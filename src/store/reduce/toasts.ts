// notification and error: frames that reach the person as a toast, and leave nothing else behind.
import { epochMs, id, str } from '../../protocol/guards';
import { gatewayWords } from '../../protocol/errors';
import { laneOf } from '../../protocol/lanes';
import { addToast, ERROR_TOAST_KIND } from '../models/toasts';
import type { Handler } from './types';

export const notification: Handler = async (db, frame, ctx) => {
  const p = frame.payload;
  const title = str(p.title);
  const body = str(p.body);
  if (title === undefined && body === undefined) return;
  const ts = epochMs(p.ts);
  const toast = { kind: id(p.kind) ?? 'generic', title: title ?? '', body: body ?? '', ts: ts ?? ctx.now };
  const lane = laneOf(frame);
  // A replayed notification was shown when it happened, or is stale by now: recorded, never shown.
  await addToast(db, lane === undefined ? toast : { ...toast, lane }, ts !== undefined, ctx.replay === true);
};

/**
 * An `error` that answers no pending request (a steer with no turn in progress, a question already
 * answered on another device, rate limiting…): the connection settles those that do, and the rest
 * reach the reducer, which would otherwise keep no trace of them. The gateway's own words say what
 * happened ("No turn is in progress"); the code's generic sentence only stands in when it sent none.
 */
export const gatewayError: Handler = async (db, frame, ctx) => {
  const title = gatewayWords(str(frame.payload.code) ?? '', frame.payload.message);
  await addToast(db, { kind: ERROR_TOAST_KIND, title, body: '', ts: ctx.now }, false);
};
