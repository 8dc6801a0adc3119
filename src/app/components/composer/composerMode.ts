// What the composer's main button does: send, steer a running turn, or stop it.
import type { LaneRow } from '../../../store/schema';

export type ComposerMode = 'send' | 'steer' | 'stop';

/**
 * The agent is "working" when the lane is busy for a reason other than waiting for the user's
 * answer to a picker: then there is no turn to steer or stop, and a message is simply sent.
 */
export function agentWorking(lane: Pick<LaneRow, 'busy' | 'busyReason'> | undefined): boolean {
  return !!lane?.busy && lane.busyReason !== 'waiting_input';
}

export function composerMode(working: boolean, text: string): ComposerMode {
  if (!working) return 'send';
  return text.trim() === '' ? 'stop' : 'steer';
}
