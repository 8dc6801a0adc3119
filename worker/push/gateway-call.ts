// The service worker's own short connection to the gateway, as this same device, when no window can
// answer a question: hello (with the same push details, so the gateway keeps waking us), picker.select,
// every frame received applied to the DB with the app's reducer, then close. No sync: the cursor stays
// where the app left it, so the app later replays these frames too (the reducer is idempotent).
import { encodeFrame, parseServerFrame, type ServerFrame } from '../../src/protocol';
import { describeError } from '../../src/net/errors';
import { pushHello } from '../../src/push/registration';
import type { IrisDB } from '../../src/store/db';
import { answerPicker } from '../../src/store/models/pickers';
import { getSetting } from '../../src/store/models/settings';
import { applyFrame } from '../../src/store/reducer';

export type CallResult = { ok: true } | { ok: false; error: string };

export interface PickerAnswer {
  picker_id: string;
  value: string;
  /** Where the question was asked (the envelope of picker.select). */
  chat_id?: string;
  thread_id?: string;
  lane?: string;
}

interface SocketLike {
  readyState: number;
  send(data: string): void;
  close(code?: number): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}

export interface CallOptions {
  WebSocketImpl?: new (url: string) => SocketLike;
  /** The whole exchange, from connecting to the answer's acknowledgement. */
  timeoutMs?: number;
  /** After the acknowledgement, how long to keep applying frames while waiting for the agent to go idle. */
  lingerMs?: number;
}

const SELECT_ID = 1;

function errorWords(frame: Extract<ServerFrame, { type: 'error' }>): string {
  const code = typeof frame.payload.code === 'string' ? frame.payload.code : 'internal';
  if (code === 'not_found') return 'This question was already answered or has closed.';
  return describeError(code);
}

/** Answers a question over the worker's own connection. */
export function answerOverOwnConnection(db: IrisDB, answer: PickerAnswer, options: CallOptions = {}): Promise<CallResult> {
  return callGateway(db, answer, options);
}

/** Only says hello: the gateway learns this device's current push details (a renewed subscription). */
export function helloOverOwnConnection(db: IrisDB, options: CallOptions = {}): Promise<CallResult> {
  return callGateway(db, undefined, options);
}

async function callGateway(db: IrisDB, answer: PickerAnswer | undefined, options: CallOptions): Promise<CallResult> {
  const [url, token, deviceId] = await Promise.all([getSetting(db, 'gatewayUrl'), getSetting(db, 'token'), getSetting(db, 'deviceId')]);
  if (!url || !token || !deviceId) return { ok: false, error: 'This device is no longer paired with a gateway. Open Iris to pair it again.' };
  const push = await pushHello(db);
  const picker = answer && (await db.pickers.get(answer.picker_id));
  const lane = picker?.lane ?? answer?.lane ?? answer?.thread_id ?? answer?.chat_id;
  const Impl = options.WebSocketImpl ?? (globalThis.WebSocket as unknown as new (url: string) => SocketLike);

  return new Promise<CallResult>((resolve) => {
    let ws: SocketLike;
    try {
      ws = new Impl(url);
    } catch {
      resolve({ ok: false, error: 'The gateway address is not valid. Open Iris to pair again.' });
      return;
    }
    let paired = false;
    let done = false;
    let result: CallResult | undefined;
    let applying: Promise<void> = Promise.resolve();
    let linger: ReturnType<typeof setTimeout> | undefined;

    const finish = (outcome: CallResult) => {
      if (done) return;
      done = true;
      result ??= outcome;
      clearTimeout(deadline);
      clearTimeout(linger);
      if (ws.readyState <= 1) ws.close(1000);
      // Resolve once every received frame is in the DB.
      void applying.then(() => resolve(result!));
    };
    const deadline = setTimeout(
      () => finish({ ok: false, error: paired ? 'The gateway did not confirm the answer in time.' : 'The gateway could not be reached.' }),
      options.timeoutMs ?? 15_000,
    );

    ws.onopen = () => {
      ws.send(
        encodeFrame({
          type: 'hello',
          payload: {
            token,
            device_id: deviceId,
            caps: { min_protocol: 1, media: true, push: push.push },
            ...(push.webpush && { webpush: push.webpush }),
            ...(push.ntfy_topic && { ntfy_topic: push.ntfy_topic }),
          },
        }),
      );
    };
    ws.onerror = () => undefined; // onclose follows
    ws.onclose = () => finish(result ?? { ok: false, error: paired ? 'The connection to the gateway closed before it confirmed the answer.' : 'The gateway could not be reached.' });
    ws.onmessage = (event) => {
      if (done || typeof event.data !== 'string') return;
      const frame = parseServerFrame(event.data);
      if (!frame) return;
      if (!paired) {
        if (frame.type === 'error') return finish({ ok: false, error: describeError('auth') });
        if (frame.type !== 'hello.ack') return;
        paired = true;
      }
      // An error is this one-shot's to report (its result says why), not a toast for the app to show later.
      if (frame.type !== 'error') applying = applying.then(() => applyFrame(db, frame, { gateway: url })).catch(() => undefined);
      if (frame.type === 'hello.ack') {
        if (!answer) return finish({ ok: true });
        ws.send(encodeFrame({ type: 'picker.select', id: SELECT_ID, ...(answer.chat_id && { chat_id: answer.chat_id }), ...(answer.thread_id && { thread_id: answer.thread_id }), payload: { picker_id: answer.picker_id, value: answer.value } }));
        return;
      }
      if (answer && frame.id === SELECT_ID && !result) {
        if (frame.type === 'error') return finish({ ok: false, error: errorWords(frame) });
        result = { ok: true };
        void answerPicker(db, answer.picker_id, answer.value).catch(() => undefined);
        clearTimeout(deadline);
        // Stay a moment for the agent's reply, so the app shows it at once when opened.
        linger = setTimeout(() => finish(result!), options.lingerMs ?? 3_000);
        return;
      }
      const frameLane = frame.thread_id ?? frame.chat_id;
      if (result && frame.type === 'agent.idle' && (!lane || frameLane === lane)) finish(result);
    };
  });
}
