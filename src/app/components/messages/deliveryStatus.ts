// What a person's message shows of its delivery. The gateway tells the device that sent a message when
// the agent read it (read.receipt, spec README §5), and no other device: there, an answer the agent
// wrote after the message says the same.
import { LOCAL_ID_PREFIX } from '../../../protocol/guards';
import type { MessageRow, MessageStatus } from '../../../store/schema';

/** A message of mine the gateway has not stored: still waiting to go, or refused (deleting it means it is never sent). */
export function isUnsent(message: MessageRow): boolean {
  return (
    message.message_id.startsWith(LOCAL_ID_PREFIX) && (message.status === 'pending' || message.status === 'failed')
  );
}

/** `agentTs`: when the agent last wrote in the message's lane (newestAgentTs), if it has. */
export function shownStatus(message: MessageRow, agentTs: number | undefined): MessageStatus {
  if (message.status !== 'sent' || message.sent_here || agentTs === undefined) return message.status;
  return agentTs > message.ts ? 'read' : 'sent';
}
