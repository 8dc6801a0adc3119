// What a person's message shows of its delivery. The gateway tells the device that sent a message when
// the agent read it (read.receipt, spec README §5), and no other device: there, an answer the agent
// wrote after the message says the same.
import type { MessageRow, MessageStatus } from '../../../store/schema';

/** `agentTs`: when the agent last wrote in the message's lane (newestAgentTs), if it has. */
export function shownStatus(message: MessageRow, agentTs: number | undefined): MessageStatus {
  if (message.status !== 'sent' || message.sent_here || agentTs === undefined) return message.status;
  return agentTs > message.ts ? 'read' : 'sent';
}
