// What the composer's main button does: send, steer a running turn, or stop it.
import type { LaneRow, MessageRow } from '../../../store/schema';

export type ComposerMode = 'send' | 'steer' | 'stop';

/**
 * The agent is "working" when the lane is busy for a reason other than waiting for the user's
 * answer to a picker: then there is no turn to steer or stop, and a message is simply sent. A
 * gateway that never says busy (protocol.py has no `agent.busy`; its `typing` is the "working…"
 * sign) works while it types or streams a reply.
 */
export function agentWorking(
  lane: (Pick<LaneRow, 'busy' | 'busyReason'> & Partial<Pick<LaneRow, 'typing'>>) | undefined,
  newest?: Pick<MessageRow, 'role' | 'status'>,
): boolean {
  if (lane?.busy) return lane.busyReason !== 'waiting_input';
  return !!lane?.typing || (newest?.role === 'assistant' && newest.status === 'streaming');
}

/**
 * `steers` false: the agent cannot be steered, so text typed while it works is sent as a message, queued.
 * `withFiles`: files wait in the composer; a steer is text only, so the message is sent (queued) with them
 * (steering left them behind, and with no text the button stopped the reply instead of sending them).
 */
export function composerMode(working: boolean, text: string, steers = true, withFiles = false): ComposerMode {
  if (!working || withFiles) return 'send';
  if (text.trim() === '') return 'stop';
  return steers ? 'steer' : 'send';
}

/**
 * The reply is over once the lane's newest message is the agent's, final: "thinking" and Stop end with
 * it, even while the gateway's agent.idle is still on its way (or from a gateway that never sends one).
 */
export function replyEnded(newest: Pick<MessageRow, 'role' | 'status'> | undefined): boolean {
  return newest?.role === 'assistant' && newest.status === 'final';
}
