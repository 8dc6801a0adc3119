// Messages between the service worker and the app's windows (postMessage), for push. Each request
// carries a MessagePort; the window answers on it (a window without the bridge never answers).

/** Which lane do you show? (A window's Client.url keeps its first URL: hash routes are not reflected.) */
interface LaneQuery {
  type: 'iris:push:lane';
}
export interface LaneReply {
  lane?: string;
  visible: boolean;
}

/** Send a question's answer over the app's own connection. */
interface SelectRequest {
  type: 'iris:push:select';
  picker_id: string;
  value: string;
}
/** `handled: false`: the window is offline, the worker connects itself. */
export type SelectReply =
  { handled: false } | { handled: true; ok: true } | { handled: true; ok: false; error: string };

/** Show a route (same-origin URL whose hash is the app's route). */
interface OpenRequest {
  type: 'iris:push:open';
  url: string;
}
export interface OpenReply {
  opened: boolean;
}

export type WorkerToWindow = LaneQuery | SelectRequest | OpenRequest;

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}

export function isLaneReply(value: unknown): value is LaneReply {
  const v = record(value);
  return v !== undefined && typeof v.visible === 'boolean' && (v.lane === undefined || typeof v.lane === 'string');
}

export function isSelectReply(value: unknown): value is SelectReply {
  const v = record(value);
  if (!v) return false;
  if (v.handled === false) return true;
  return v.handled === true && (v.ok === true || (v.ok === false && typeof v.error === 'string'));
}

export function isOpenReply(value: unknown): value is OpenReply {
  return typeof record(value)?.opened === 'boolean';
}
