// A Hermes session's earlier conversation as the lane's stored history (README "History import"):
// the person's words and Hermes's replies, each reply with the reasoning of the steps that led to it.
// Tool steps and tool results are left out (the app has no card for a finished tool of the past).
// Ids are derived from the session and Hermes's own row ids, so importing again finds them stored.
import { createHash } from 'node:crypto';
import type { StoredMessage } from '../conversations';
import type { SessionMessage } from './client';

type ImportedMessage = StoredMessage & { ts: number };

/** The stable id of a Hermes message in a lane's history. */
export function importedId(sessionId: string, rowId: number | string): string {
  const session = createHash('sha256').update(sessionId).digest('hex').slice(0, 12);
  return `msg_hermes_${session}_${rowId}`;
}

/**
 * The messages to store for a session, oldest first, with strictly increasing timestamps (epoch ms,
 * from Hermes's seconds), so the lane's order and its times agree.
 */
export function historyFromSession(
  lane: string,
  sessionId: string,
  messages: SessionMessage[],
  model?: string,
): ImportedMessage[] {
  const out: ImportedMessage[] = [];
  let thoughts: string[] = [];
  let lastTs = 0;
  messages.forEach((m, index) => {
    const ts = Math.max(Math.round((m.timestamp ?? 0) * 1000), lastTs + 1);
    const text = m.content.trim();
    const base = { lane, message_id: importedId(sessionId, m.id ?? `i${index}`), text: m.content, ts };
    if (m.role === 'user') {
      thoughts = [];
      if (!text) return;
      out.push({ ...base, role: 'user' });
      lastTs = ts;
    } else if (m.role === 'assistant') {
      if (m.reasoning?.trim()) thoughts.push(m.reasoning.trim());
      if (!text) return; // a step that only called tools: its reasoning goes with the reply
      out.push({
        ...base,
        role: 'assistant',
        ...(thoughts.length ? { reasoning: thoughts.join('\n\n') } : {}),
        ...(model ? { model } : {}),
      });
      thoughts = [];
      lastTs = ts;
    }
  });
  return out;
}
