// Who a message is from, as a person reads it. Pure: the lane head (LaneHead.ts) uses it before the app's code runs.
import type { Role } from '../../../protocol';
import { DEFAULT_AGENT_NAME } from '../status/agentInfo';

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
