import type { Accessor } from 'solid-js';
import { live } from '../../../store/live';
import { getSetting } from '../../../store/models/settings';
import { useIris } from '../../../runtime';
import { agentName } from '../status/agentInfo';

/** The agent's name the gateway reports (agentName), undefined until the stored status is read. */
export function useAgentName(): Accessor<string | undefined> {
  const { db } = useIris();
  return live(async () => agentName(await getSetting(db, 'gatewayStatus')), undefined);
}
