import { createEffect, createMemo, createSignal, onCleanup, type Accessor } from 'solid-js';
import type { ConnectionState } from '../../../client';

/** What work shown going on says while the connection is down. */
export const PAUSED_TEXT = 'Paused until the gateway is back';
/** …and when the gateway refused this device: waiting would not bring it back, pairing again does. */
export const PAUSED_UNPAIRED_TEXT = 'Paused: pair this device again to go on';

/** A reconnect that succeeds at once is not worth saying so (the connection banner waits as long). */
export const PAUSE_AFTER_MS = 1000;

/**
 * Whether the connection has been down for a moment: a reply that streams, a tool that runs or an agent
 * that thinks cannot go on until it is back, and should not look as if it did (a page reloaded offline
 * mid-reply kept its typing dots for as long as it stayed offline). Gives what to say then, else nothing.
 */
export function createConnectionPause(
  state: Accessor<ConnectionState>,
  afterMs = PAUSE_AFTER_MS,
): Accessor<string | undefined> {
  const [paused, setPaused] = createSignal(false);
  // A memo, so reconnect attempts flipping offline ⇄ connecting do not restart the wait.
  const down = createMemo(() => state() !== 'online');
  createEffect(() => {
    if (!down()) {
      setPaused(false);
      return;
    }
    const timer = setTimeout(() => setPaused(true), afterMs);
    onCleanup(() => clearTimeout(timer));
  });
  return () => (!paused() ? undefined : state() === 'auth-failed' ? PAUSED_UNPAIRED_TEXT : PAUSED_TEXT);
}
