// A Hermes session's earlier conversation as the lane's stored history (README "History import"):
// the person's words and Hermes's replies, each reply with the reasoning of the steps that led to it
// and the tools they ran (the `tools` extension: name, what it ran, and how it ended where the result
// says so). Tool arguments and outputs stay in Hermes, as history keeps none for a live turn either.
// Ids are derived from the session and Hermes's own row ids, so importing again finds them stored.
import { createHash } from 'node:crypto';
import type { HistoryTool } from '../../../src/protocol';
import type { StoredMessage } from '../conversations';
import { endedTool } from '../frames';
import type { SessionMessage, SessionToolCall } from './client';

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
  // What the steps since the person's words did, given to the reply that ends them.
  let thoughts: string[] = [];
  let calls = new Map<string, SessionToolCall>();
  let tools: HistoryTool[] = [];
  let lastTs = 0;
  messages.forEach((m, index) => {
    const ts = Math.max(Math.round((m.timestamp ?? 0) * 1000), lastTs + 1);
    const text = m.content.trim();
    const base = { lane, message_id: importedId(sessionId, m.id ?? `i${index}`), text: m.content, ts };
    if (m.role === 'user') {
      thoughts = [];
      calls = new Map();
      tools = [];
      if (!text) return;
      out.push({ ...base, role: 'user' });
      lastTs = ts;
    } else if (m.role === 'tool') {
      const tool = toolOfResult(m, calls, tools.length);
      if (tool) tools.push(tool);
    } else if (m.role === 'assistant') {
      if (m.reasoning?.trim()) thoughts.push(m.reasoning.trim());
      for (const call of m.tool_calls ?? []) calls.set(call.id, call);
      if (!text) return; // a step that only called tools: its reasoning and tools go with the reply
      out.push({
        ...base,
        role: 'assistant',
        ...(thoughts.length ? { reasoning: thoughts.join('\n\n') } : {}),
        ...(tools.length ? { tools } : {}),
        ...(model ? { model } : {}),
      });
      thoughts = [];
      calls = new Map();
      tools = [];
      lastTs = ts;
    }
  });
  return out;
}

/**
 * The tools the steps after the session's newest user message ran (a run's, for its reply when the run
 * was followed across our restart and its tool events were lost with the old connection).
 */
export function toolsOfLastTurn(messages: SessionMessage[]): HistoryTool[] {
  const start = messages.map((m) => m.role).lastIndexOf('user') + 1;
  const calls = new Map<string, SessionToolCall>();
  const tools: HistoryTool[] = [];
  for (const m of messages.slice(start)) {
    if (m.role === 'assistant') for (const call of m.tool_calls ?? []) calls.set(call.id, call);
    const tool = m.role === 'tool' ? toolOfResult(m, calls, tools.length) : undefined;
    if (tool) tools.push(tool);
  }
  return tools;
}

/** A tool result row as the `index`th card, named by the call that asked for it (or by the row). */
function toolOfResult(
  row: SessionMessage,
  calls: ReadonlyMap<string, SessionToolCall>,
  index: number,
): HistoryTool | undefined {
  const call = row.tool_call_id !== undefined ? calls.get(row.tool_call_id) : undefined;
  const name = row.tool_name || call?.name;
  if (!name) return undefined;
  const preview = call && argumentPreview(call.arguments);
  return endedTool({ index, name, preview }, toolSucceeded(row.content));
}

/**
 * How a tool ended, from its result as Hermes stored it: a JSON object says so (an `error`, `success:
 * false` or a non-zero `exit_code` fail; otherwise it succeeded), as does text starting "Error"; any
 * other text does not say (undefined: the card shows it finished, without a tick or a cross).
 */
export function toolSucceeded(result: string): boolean | undefined {
  if (/^\s*error\b/i.test(result)) return false;
  const data = jsonObject(result);
  if (!data) return undefined;
  const { error, success, exit_code: exitCode } = data;
  const failed =
    (error !== undefined && error !== null && error !== '' && error !== false) ||
    success === false ||
    (typeof exitCode === 'number' && exitCode !== 0);
  return !failed;
}

/** A call's one-line preview, as the live card has it: the first text among its arguments (a command, a path, a query). */
function argumentPreview(args: string): string | undefined {
  const first = Object.values(jsonObject(args) ?? {}).find(
    (v): v is string => typeof v === 'string' && v.trim() !== '',
  );
  const line = first?.trim().split('\n', 1)[0];
  return line && (line.length > 120 ? `${line.slice(0, 119)}…` : line);
}

/** A JSON text that is an object, parsed; anything else (text, an array, malformed JSON) undefined. */
function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const data: unknown = JSON.parse(text);
    return typeof data === 'object' && data !== null && !Array.isArray(data)
      ? (data as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
