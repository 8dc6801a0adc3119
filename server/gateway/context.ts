// What every handler needs: the options, the store, delivery, the agent and push. Nothing below the
// handlers imports it: the agent gets its own narrower AgentHost (agent.ts).
import type { Agent } from './agent';
import type { HelloBackoff } from './hello-backoff';
import type { Hub } from './hub';
import type { GatewayOptions, ResolvedOptions } from './options';
import type { PushDispatcher } from './push';
import type { GatewayStore } from './store';

export interface GatewayContext {
  opts: ResolvedOptions;
  raw: GatewayOptions;
  store: GatewayStore;
  hub: Hub;
  agent: Agent;
  push: PushDispatcher;
  helloBackoff: HelloBackoff;
  log: (line: string) => void;
}
