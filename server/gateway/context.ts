// What every handler needs: the options, the store, delivery, the agent and push.
import type { Agent } from './agent';
import type { HelloBackoff } from './hello-backoff';
import type { Hub } from './hub';
import type { PushDispatcher } from './push';
import type { GatewayStore } from './store';
import type { GatewayOptions } from './types';

export interface ResolvedOptions {
  token: string;
  streamDelayMs: number;
  maxMediaBytes: number;
  maxFrameBytes: number;
  rateLimit: { burst: number; perSecond: number };
}

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
