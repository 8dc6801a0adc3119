// The service worker's own short connection to the gateway, as this same device, when no window can
// answer a question: the app's GatewayConnection, one-shot (no reconnect), so the same hello (with the
// same push details, so the gateway keeps waking us), request matching and error words; picker.select,
// every frame received applied to the DB with the app's reducer, then close. No sync: the cursor stays
// where the app left it, so the app later replays these frames too (the reducer is idempotent).
import type { ServerFrame } from '../../src/protocol';
import { GatewayConnection, type WebSocketConstructor } from '../../src/net/connection';
import { describeError, ProtocolError } from '../../src/net/errors';
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

export interface CallOptions {
  WebSocketImpl?: WebSocketConstructor;
  /** The whole exchange, from connecting to the answer's acknowledgement. */
  timeoutMs?: number;
  /** After the acknowledgement, how long to keep applying frames while waiting for the agent to go idle. */
  lingerMs?: number;
}

/** Answers a question over the worker's own connection. */
export function answerOverOwnConnection(
  db: IrisDB,
  answer: PickerAnswer,
  options: CallOptions = {},
): Promise<CallResult> {
  return callGateway(db, answer, options);
}

/** Only says hello: the gateway learns this device's current push details (a renewed subscription). */
export function helloOverOwnConnection(db: IrisDB, options: CallOptions = {}): Promise<CallResult> {
  return callGateway(db, undefined, options);
}

async function callGateway(db: IrisDB, answer: PickerAnswer | undefined, options: CallOptions): Promise<CallResult> {
  const [url, token, deviceId] = await Promise.all([
    getSetting(db, 'gatewayUrl'),
    getSetting(db, 'token'),
    getSetting(db, 'deviceId'),
  ]);
  if (!url || !token || !deviceId)
    return { ok: false, error: 'This device is no longer paired with a gateway. Open Iris to pair it again.' };
  const push = await pushHello(db);
  const picker = answer && (await db.pickers.get(answer.picker_id));
  const lane = picker?.lane ?? answer?.lane ?? answer?.thread_id ?? answer?.chat_id;
  if (!isSocketUrl(url)) return { ok: false, error: 'The gateway address is not valid. Open Iris to pair again.' };
  const timeoutMs = options.timeoutMs ?? 15_000;

  return new Promise<CallResult>((resolve) => {
    let paired = false;
    let done = false;
    let result: CallResult | undefined;
    let applying: Promise<void> = Promise.resolve();
    let linger: ReturnType<typeof setTimeout> | undefined;

    /** Every received frame goes to the DB in order; one that fails is reported and the rest go on. */
    const store = (frame: ServerFrame): Promise<void> =>
      (applying = applying
        .then(() => applyFrame(db, frame, { gateway: url }))
        .catch((err: unknown) => console.warn('iris push: could not store', frame.type, err)));

    const connection = new GatewayConnection({
      url,
      token,
      deviceId,
      pushHello: () => Promise.resolve(push),
      reconnects: false,
      requestTimeoutMs: timeoutMs,
      wakeSource: () => () => {},
      ...(options.WebSocketImpl && { WebSocketImpl: options.WebSocketImpl }),
      handlers: {
        opened: (ack) => {
          paired = true;
          void store(ack);
          if (!answer) return finish({ ok: true });
          const select = {
            v: 1 as const,
            type: 'picker.select' as const,
            ...(answer.chat_id && { chat_id: answer.chat_id }),
            ...(answer.thread_id && { thread_id: answer.thread_id }),
            payload: { picker_id: answer.picker_id, value: answer.value },
          };
          // No timeout of its own: the whole exchange has one.
          connection.request(select, { timeoutMs: null }).then(answered, (err: unknown) => {
            if (err instanceof ProtocolError) finish({ ok: false, error: err.message }); // the gateway's words, or ours for picker.select
            // A lost connection ends through the state below.
          });
        },
        frame: (frame) => {
          // An error is this one-shot's to report (its result says why), not a toast for the app to show later.
          const stored = frame.type === 'error' ? Promise.resolve() : store(frame);
          const frameLane = frame.thread_id ?? frame.chat_id;
          if (result && frame.type === 'agent.idle' && (!lane || frameLane === lane)) finish(result);
          return stored;
        },
        state: (state) => {
          if (state === 'auth-failed') finish({ ok: false, error: describeError('auth') });
          else if (state === 'offline')
            finish(
              result ?? {
                ok: false,
                error: paired
                  ? 'The connection to the gateway closed before it confirmed the answer.'
                  : 'The gateway could not be reached.',
              },
            );
        },
      },
    });

    const answered = () => {
      if (done || !answer) return;
      result = { ok: true };
      void answerPicker(db, answer.picker_id, answer.value).catch((err: unknown) =>
        console.warn('iris push: could not close the answered question here', err),
      );
      clearTimeout(deadline);
      // Stay a moment for the agent's reply, so the app shows it at once when opened.
      linger = setTimeout(() => finish(result!), options.lingerMs ?? 3_000);
    };

    function finish(outcome: CallResult): void {
      if (done) return;
      done = true;
      result ??= outcome;
      clearTimeout(deadline);
      clearTimeout(linger);
      connection.stop();
      // Resolve once every received frame is in the DB.
      void applying.then(() => resolve(result!));
    }

    const deadline = setTimeout(
      () =>
        finish({
          ok: false,
          error: paired ? 'The gateway did not confirm the answer in time.' : 'The gateway could not be reached.',
        }),
      timeoutMs,
    );
    connection.start();
  });
}

/** What the WebSocket constructor accepts (it throws on anything else). */
function isSocketUrl(url: string): boolean {
  try {
    return /^wss?:$/.test(new URL(url).protocol);
  } catch {
    return false;
  }
}
