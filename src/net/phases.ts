// The connection's lifecycle as data: its phases, the events that move it, the transition table and
// the state each phase shows as. Pure: GatewayConnection (./connection.ts) runs each phase's entry.
// The lifecycle is written down in ./README.md.
import type { HelloAckFrame } from '../protocol';

/** What the app shows of the connection (each phase maps onto one, see `stateOf`). */
export type ConnectionState = 'offline' | 'connecting' | 'pairing' | 'online' | 'auth-failed';

/**
 * Where the connection is in its lifecycle. Each phase owns what runs in it: a socket (connecting,
 * hello-sent, live), the heartbeat (live), the reconnect timer (backing-off); nothing else holds state.
 */
export type Phase = 'closed' | 'connecting' | 'hello-sent' | 'live' | 'backing-off' | 'auth-failed';

/** What moves the connection from one phase to another. */
export type LifecycleEvent =
  /** start(): connect, and keep reconnecting. */
  | { type: 'start' }
  /** The socket opened: say hello. */
  | { type: 'opened' }
  /** hello.ack arrived: requests may be sent. */
  | { type: 'acked'; ack: HelloAckFrame }
  /** The gateway refused the token (before hello.ack, or mid-session). */
  | { type: 'refused'; message?: string }
  /** The socket is gone: closed, could not be made, refused for another reason, or silent too long. */
  | { type: 'lost'; reason?: string }
  /** The backoff ran out, or the browser says the network or the page is back. */
  | { type: 'retry' }
  /** stop(): close for good. */
  | { type: 'stop' };

/**
 * The transition table: the phase an event leads to, or undefined when the event means nothing in
 * that phase (a late socket event, a wake while connecting, a second start()). `reconnects` is false
 * for a one-shot connection (the service worker's): a loss closes it instead of backing off.
 */
export function nextPhase(phase: Phase, event: LifecycleEvent['type'], reconnects = true): Phase | undefined {
  const lost = reconnects ? 'backing-off' : 'closed';
  switch (phase) {
    case 'closed':
      return event === 'start' ? 'connecting' : undefined;
    case 'connecting':
      return ({ opened: 'hello-sent', lost, stop: 'closed' } as const)[event as 'opened' | 'lost' | 'stop'];
    case 'hello-sent':
      return ({ acked: 'live', refused: 'auth-failed', lost, stop: 'closed' } as const)[
        event as 'acked' | 'refused' | 'lost' | 'stop'
      ];
    case 'live':
      return ({ refused: 'auth-failed', lost, stop: 'closed' } as const)[event as 'refused' | 'lost' | 'stop'];
    case 'backing-off':
      return ({ retry: 'connecting', stop: 'closed' } as const)[event as 'retry' | 'stop'];
    case 'auth-failed':
      // Only a new start() (after stop) tries the token again.
      return event === 'stop' ? 'closed' : undefined;
  }
}

/** The state the app sees in each phase. */
export function stateOf(phase: Phase): ConnectionState {
  return (
    {
      closed: 'offline',
      connecting: 'connecting',
      'hello-sent': 'pairing',
      live: 'online',
      'backing-off': 'offline',
      'auth-failed': 'auth-failed',
    } as const
  )[phase];
}
