// What the gateway asks of the agent behind it. The gateway keeps channels, messages, outboxes, media,
// search and push; an agent only does the agent's side of a turn. DemoAgent (agent/demo.ts) and
// HermesAgent (hermes/agent.ts) implement it; the handlers know only this interface. It imports only
// what an agent is handed (AgentHost), never the gateway's context or its sessions, so nothing circles back.
import type { ClientFrameOf, CommandsCatalogFrame, CommandsCompleteFrame, ServerFrame } from '../../src/protocol';
import type { StoredMessage } from './conversations';
import type { LaneAddress } from './directory';
import type { Hub } from './hub';
import type { Requester } from './peer';
import type { PushDispatcher } from './push';
import type { GatewayQuirks } from './quirks';
import type { GatewayStore } from './store';

/** What the gateway hands an agent in attach(): where to keep state, deliver frames, push and log. */
export interface AgentHost {
  readonly store: GatewayStore;
  readonly hub: Hub;
  readonly push: PushDispatcher;
  readonly log: (line: string) => void;
  /** Delay between the demo's stream steps (ms). */
  readonly streamDelayMs: number;
  /** Test only: the readings of other gateways in force (quirks.ts). */
  readonly quirks?: GatewayQuirks;
}

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
  /**
   * Whether `agent.steer` reaches a running turn. False (Hermes 0.19.0 has no steer endpoint): the app
   * offers no Steer and sends what is typed during a reply as a plain message, queued behind it.
   */
  steer: boolean;
}

export interface Agent {
  /** Called once by createGateway, before any connection. */
  attach(host: AgentHost): void;
  /** Close or resume the turns a previous process left open (after attach). */
  recover(): void;
  /** Where an incoming message belongs (an agent may open a thread for it). */
  laneFor(addr: LaneAddress, text: string): LaneAddress;
  /** A user message is stored and echoed: the agent's work on it starts in its lane. */
  onUserMessage(addr: LaneAddress, msg: StoredMessage, senderDevice: string): void;
  stop(requester: Requester, frame: ClientFrameOf<'agent.stop'>): void;
  steer(requester: Requester, frame: ClientFrameOf<'agent.steer'>): void;
  select(requester: Requester, frame: ClientFrameOf<'picker.select'>): void;
  catalog(): CommandsCatalogFrame;
  complete(prefix: unknown): CommandsCompleteFrame;
  describe(): AgentDescription;
  /**
   * The questions waiting for an answer, as frames to restate to a device paired after they were
   * asked (no outbox of its own held them): per picker, agent.busy{waiting_input} and the picker.
   */
  openPickers?(): ServerFrame[];
  /** Stop timers and open turns; the gateway is closing. */
  close(): void;
}
