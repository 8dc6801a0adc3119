// Which agent is behind the gateway, as the gateway's `status.session.agent` describes it (the
// reference gateway's extension, server/gateway/README.md "Which agent"). Untrusted: only bounded
// strings are kept; a gateway that sends nothing gets nothing shown.
import { isObject } from '../../../protocol/guards';

export interface AgentInfo {
  name: string;
  version?: string;
  model?: string;
  problem?: string;
}

const text = (v: unknown, max: number): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, max) : undefined;

/** The stored `gatewayStatus` setting (`{state, session}`) → the agent it names, if any. */
export function agentInfo(status: unknown): AgentInfo | undefined {
  if (!isObject(status) || !isObject(status.session) || !isObject(status.session.agent)) return undefined;
  const a = status.session.agent;
  const name = text(a.name, 80);
  if (!name) return undefined;
  const version = text(a.version, 40);
  const model = text(a.model, 120);
  const problem = text(a.problem, 300);
  return { name, ...(version ? { version } : {}), ...(model ? { model } : {}), ...(problem ? { problem } : {}) };
}

/** Who answers when the gateway does not say: the agent Iris is made for. */
export const DEFAULT_AGENT_NAME = 'Hermes';

/**
 * The agent's name as the conversation shows it ("Iris demo agent is here", its replies' author, "… is
 * thinking"): the name the gateway reports in `status.session.agent.name`, without a version it carries
 * ("Hermes 0.19.0" → "Hermes"), else "Hermes".
 */
export function agentName(status: unknown): string {
  const info = agentInfo(status);
  if (!info) return DEFAULT_AGENT_NAME;
  const { name, version } = info;
  const bare = version && name.endsWith(` ${version}`) ? name.slice(0, -version.length - 1).trim() : name;
  return bare || DEFAULT_AGENT_NAME;
}

/**
 * Whether the agent takes `agent.steer` while it works. Only an explicit `steer: false` says no (Hermes
 * 0.19.0 has no steer endpoint); a gateway that says nothing is assumed to steer, as the protocol has it.
 */
export function agentSteers(status: unknown): boolean {
  return !(isObject(status) && isObject(status.session) && isObject(status.session.agent))
    ? true
    : status.session.agent.steer !== false;
}

/** "Hermes 0.19.0 · model iris-scripted-1" */
export function agentLine(info: AgentInfo): string {
  return info.model ? `${info.name} · model ${info.model}` : info.name;
}
