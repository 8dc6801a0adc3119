// The transition table, as data: every phase against every event, with and without reconnection.
import { describe, expect, it } from 'vitest';
import { nextPhase, stateOf, type LifecycleEvent, type Phase } from './phases';

describe('the lifecycle table', () => {
  const phases: Phase[] = ['closed', 'connecting', 'hello-sent', 'live', 'backing-off', 'auth-failed'];
  const events: LifecycleEvent['type'][] = ['start', 'opened', 'acked', 'refused', 'lost', 'retry', 'stop'];
  const table = (reconnects: boolean) =>
    Object.fromEntries(
      phases.map((p) => [
        p,
        Object.fromEntries(
          events.flatMap((e) => (nextPhase(p, e, reconnects) ? [[e, nextPhase(p, e, reconnects)]] : [])),
        ),
      ]),
    );

  it('moves only along the documented transitions; every other event is ignored', () => {
    expect(table(true)).toEqual({
      closed: { start: 'connecting' },
      connecting: { opened: 'hello-sent', lost: 'backing-off', stop: 'closed' },
      'hello-sent': { acked: 'live', refused: 'auth-failed', lost: 'backing-off', stop: 'closed' },
      live: { refused: 'auth-failed', lost: 'backing-off', stop: 'closed' },
      'backing-off': { retry: 'connecting', stop: 'closed' },
      'auth-failed': { stop: 'closed' },
    });
  });

  it('a one-shot connection closes where another backs off, and so never retries', () => {
    const oneShot = table(false);
    expect(oneShot.connecting).toEqual({ opened: 'hello-sent', lost: 'closed', stop: 'closed' });
    expect(oneShot.live).toEqual({ refused: 'auth-failed', lost: 'closed', stop: 'closed' });
    expect(Object.values(oneShot).some((to) => Object.values(to).includes('backing-off'))).toBe(false);
  });

  it('each phase shows as one connection state', () => {
    expect(phases.map(stateOf)).toEqual(['offline', 'connecting', 'pairing', 'online', 'offline', 'auth-failed']);
  });
});
