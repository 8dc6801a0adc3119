// What the gateway asks of the agent behind it. The gateway keeps channels, messages, outboxes, media,
// search and push; an agent only does the agent's side of a turn. DemoAgent (agent/demo.ts) and
// HermesAgent (hermes/agent.ts) implement it; the handlers know only this interface.
import type { ClientFrameOf, CommandsCatalogFrame, CommandsCompleteFrame } from '../../src/protocol';
import type { Connection } from './connection';
import type { GatewayContext } from './context';
import type { StoredMessage } from './conversations';
import type { LaneAddress } from './directory';

/**
 * Which agent is behind the gateway, as the app shows it (Settings → Gateway) and the start-up lines
 * print it. Sent to the app in `status.payload.session.agent` (see README "Which agent").
 */
export interface AgentDescription {
  kind: 'demo' | 'hermes';
  /** "Iris demo agent", "Hermes 0.19.0" */
  name: string;
  version?: string;
  model?: string;
  /** Where the agent is, when it is not in this process (never carries a key). */
  url?: string;
  /** Why the agent cannot answer now, in words; absent when it is healthy. */
  problem?: string;
}

export interface Agent {
  /** Called once by createGateway, before any connection. */
  attach(ctx: GatewayContext): void;
  /** Close or resume the turns a previous process left open (after attach). */
  recover(): void;
  /** Where an incoming message belongs (an agent may open a thread for it). */
  laneFor(addr: LaneAddress, text: string): LaneAddress;
  /** A user message is stored and echoed: the agent's work on it starts in its lane. */
  onUserMessage(addr: LaneAddress, msg: StoredMessage, senderDevice: string): void;
  stop(conn: Connection, frame: ClientFrameOf<'agent.stop'>): void;
  steer(conn: Connection, frame: ClientFrameOf<'agent.steer'>): void;
  select(conn: Connection, frame: ClientFrameOf<'picker.select'>): void;
  catalog(): CommandsCatalogFrame;
  complete(prefix: unknown): CommandsCompleteFrame;
  describe(): AgentDescription;
  /** Stop timers and open turns; the gateway is closing. */
  close(): void;
}
