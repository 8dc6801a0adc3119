// What the banner at the top says about the connection and the gateway's health, if anything.
import type { CatchUp, ConnectionState } from '../../../client';

export type GatewayHealth = 'online' | 'restarting' | 'degraded';

export interface BannerMessage {
  tone: 'warn' | 'danger';
  text: string;
  /** Offer a way to pair again (after an auth failure). */
  repair?: boolean;
  /** Offer to try the gateway now (offline, waiting out the reconnect backoff of up to 30 s). */
  retry?: boolean;
}

/** The `status` frame's state as the reducer stored it (a string, or `{state}`); anything else is ignored. */
export function gatewayHealth(value: unknown): GatewayHealth | undefined {
  const state = typeof value === 'object' && value !== null ? (value as { state?: unknown }).state : value;
  return state === 'online' || state === 'restarting' || state === 'degraded' ? state : undefined;
}

/**
 * `agentProblem`: why the agent behind the gateway cannot answer, as the gateway said it (degraded
 * only); `catchUp`: a long sync replay being stored; `syncUnanswered`: the gateway has not answered
 * the connection's sync for a while (until it does, nothing is sent or loaded).
 */
export function bannerMessage(
  state: ConnectionState,
  health: GatewayHealth | undefined,
  agentProblem?: string,
  catchUp?: CatchUp,
  syncUnanswered?: boolean,
): BannerMessage | undefined {
  switch (state) {
    case 'auth-failed':
      return { tone: 'danger', text: 'The gateway no longer accepts this device.', repair: true };
    case 'offline':
      return {
        tone: 'warn',
        text: 'Offline. You can read saved messages; new ones are sent when the gateway is back.',
        retry: true,
      };
    case 'connecting':
      return { tone: 'warn', text: 'Reconnecting to the gateway…' };
    case 'pairing':
      return undefined;
    case 'online':
      if (health === 'restarting')
        return { tone: 'warn', text: 'The gateway is restarting. Replies may pause for a moment.' };
      if (health === 'degraded' && agentProblem) {
        return { tone: 'warn', text: `The agent cannot answer right now: ${agentProblem} Your messages are kept.` };
      }
      if (health === 'degraded')
        return { tone: 'warn', text: 'The gateway is having trouble. Replies may be slow or fail.' };
      if (catchUp) return { tone: 'warn', text: catchUpText(catchUp) };
      if (syncUnanswered)
        return {
          tone: 'warn',
          text: 'Connected, but the gateway has not answered yet. Messages are sent and loaded once it does.',
        };
      return undefined;
  }
}

/** "Catching up: 3,400 of 10,000" (messages and events missed while away, being stored). */
function catchUpText({ stored, total }: CatchUp): string {
  return `Catching up: ${stored.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`;
}
