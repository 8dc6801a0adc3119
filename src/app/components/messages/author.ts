// Who a message is from, as a person reads it.
import type { Accessor } from 'solid-js';
import type { Role } from '../../../protocol';
import { live } from '../../../store/live';
import { getSetting } from '../../../store/models/settings';
import { useIris } from '../../../runtime';
import { DEFAULT_AGENT_NAME, agentName } from '../status/agentInfo';

/** `agent`: the agent's name (useAgentName), for its messages. */
export function authorName(role: Role, agent = DEFAULT_AGENT_NAME): string {
  switch (role) {
    case 'user':
      return 'You';
    case 'assistant':
      return agent;
    case 'cron':
      return 'Reminder';
    case 'system':
      return 'System';
    default:
      return 'Unknown';
  }
}

/** The first non-empty line of a text, shortened: what a quote shows. */
export function firstLine(text: string, max = 120): string {
  const line =
    text
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The agent's name the gateway reports (agentName), undefined until the stored status is read. */
export function useAgentName(): Accessor<string | undefined> {
  const { db } = useIris();
  return live(async () => agentName(await getSetting(db, 'gatewayStatus')), undefined);
}
