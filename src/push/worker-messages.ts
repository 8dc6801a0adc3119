// Messages between the service worker and the app's windows (postMessage), for push.

/** The service worker asks a window to answer a question over the app's own connection. */
export interface SelectRequest {
  type: 'iris:push:select';
  picker_id: string;
  value: string;
}

/** The window's answer on the request's MessagePort. `handled: false`: it is offline, the worker connects itself. */
export type SelectReply = { handled: false } | { handled: true; ok: true } | { handled: true; ok: false; error: string };

/** The service worker asks a window it could not navigate (not controlled by it) to show a route. */
export interface OpenRequest {
  type: 'iris:push:open';
  /** Same-origin URL whose hash is the app's route. */
  url: string;
}

export type WorkerToWindow = SelectRequest | OpenRequest;

export function isSelectReply(value: unknown): value is SelectReply {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  if (v.handled === false) return true;
  return v.handled === true && (v.ok === true || (v.ok === false && typeof v.error === 'string'));
}
