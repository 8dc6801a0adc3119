// The `status` frame that tells the app which agent answers and whether it can: `state` is degraded
// while the agent has a problem, and `session.agent` describes it (README "Which agent").
import type { StatusFrame } from '../../src/protocol';
import type { AgentDescription } from './agent';

export function statusFrame(agent: AgentDescription): StatusFrame {
  return {
    v: 1,
    type: 'status',
    payload: { state: agent.problem ? 'degraded' : 'online', session: { agent: { ...agent } } },
  };
}
