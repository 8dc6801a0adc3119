// Watches one pairing attempt and says, in words, why it goes nowhere (problem.ts): the page's CSP
// refusing the socket (a securitypolicyviolation event), a failed first attempt, or no answer in time.
import { createEffect, createSignal, on, onCleanup, type Accessor } from 'solid-js';
import type { ConnectionState } from '../../../client';
import { blocksGateway, pairingProblem } from './problem';

/** How often an attempt that has not connected yet is looked at again. */
const CHECK_EVERY_MS = 500;

export interface AttemptWatch {
  /** The sentence to show instead of the connection state, while the attempt goes nowhere. */
  problem: Accessor<string | undefined>;
  /** A new attempt to reach `url` starts now (Connect pressed, or a link opened). */
  begin(url: string): void;
}

/** For a component's lifetime: call inside one (it registers cleanups). */
export function watchPairingAttempt(state: Accessor<ConnectionState>): AttemptWatch {
  const [problem, setProblem] = createSignal<string>();
  let attempt = { url: '', since: 0, cspBlocked: false, failed: false, closedAtHello: false };

  const onViolation = (e: SecurityPolicyViolationEvent) => {
    if (attempt.url && blocksGateway(e.blockedURI, e.effectiveDirective || e.violatedDirective, attempt.url))
      attempt.cspBlocked = true;
  };
  document.addEventListener('securitypolicyviolation', onViolation);
  onCleanup(() => document.removeEventListener('securitypolicyviolation', onViolation));

  const check = () => {
    if (!attempt.url) return;
    const found = pairingProblem({
      url: attempt.url,
      state: state(),
      waitedMs: Date.now() - attempt.since,
      cspBlocked: attempt.cspBlocked,
      failed: attempt.failed,
      closedAtHello: attempt.closedAtHello,
      pageOrigin: location.origin,
    });
    // Sticky until the attempt ends: the retries flip between offline and connecting underneath.
    if (found) setProblem(found);
  };
  const ticker = setInterval(check, CHECK_EVERY_MS);
  onCleanup(() => clearInterval(ticker));
  createEffect(
    on(state, (now, before) => {
      if (now === 'offline' && (before === 'connecting' || before === 'pairing')) attempt.failed = true;
      if (now === 'offline' && before === 'pairing') attempt.closedAtHello = true;
      if (now === 'online' || now === 'auth-failed') setProblem(undefined);
      else check();
    }),
  );

  return {
    problem,
    begin(url) {
      setProblem(undefined);
      attempt = { url, since: Date.now(), cspBlocked: false, failed: false, closedAtHello: false };
    },
  };
}
