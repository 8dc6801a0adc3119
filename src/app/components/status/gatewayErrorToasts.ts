// Errors the gateway sends that answer no pending request (a steer with no turn in progress, a
// question already answered on another device, rate limiting…) would otherwise vanish: the store's
// reducer keeps no state for them. This reducer wrapper shows each as a toast, in words.
import { describeError } from '../../../net/errors';
import type { Reducer } from '../../../net/session';
import type { ServerFrame } from '../../../protocol';
import type { IrisDB } from '../../../store/db';
import { addToast } from '../../../store/models/toasts';
import { applyFrame, applyFrames } from '../../../store/reducer';
import { ERROR_TOAST_KIND } from './toastWrites';

const MAX_DETAIL = 300;

/** Adds a toast for an `error` frame; anything else is left alone. Never throws for bad input. */
export async function toastGatewayError(db: IrisDB, frame: ServerFrame, now = Date.now()): Promise<void> {
  if (frame.type !== 'error') return;
  const payload = frame.payload as { code?: unknown; message?: unknown };
  const code = typeof payload.code === 'string' ? payload.code : '';
  // The gateway's own words say what happened ("No turn is in progress"); the code's generic sentence
  // ("That no longer exists…") only stands in when it sent none. Untrusted: shown as text only.
  const words = typeof payload.message === 'string' ? payload.message.replace(/\s+/g, ' ').trim().slice(0, MAX_DETAIL) : '';
  await addToast(db, { kind: ERROR_TOAST_KIND, title: words || describeError(code), body: '', ts: now }, false);
}

/** The store's reducer, plus toasts for stray gateway errors. */
export function reducerWithErrorToasts(): Reducer {
  return {
    async apply(db, frame, ctx) {
      await toastGatewayError(db, frame);
      await applyFrame(db, frame, ctx);
    },
    async applyBatch(db, frames, ctx) {
      for (const frame of frames) await toastGatewayError(db, frame);
      await applyFrames(db, frames, ctx);
    },
  };
}
