// Small builders for server frames addressed to a lane.
import type { HistoryTool, MessageFrame, ServerFrame } from '../../src/protocol';
import { toWire, type StoredMessage } from './conversations';
import type { ChannelDirectory, LaneAddress } from './directory';

/** The envelope scope of a lane: chat_id, plus thread_id for a thread (spec README §4). */
export function at(addr: LaneAddress): { chat_id: string; thread_id?: string } {
  return addr.thread_id === undefined
    ? { chat_id: addr.chat_id }
    : { chat_id: addr.chat_id, thread_id: addr.thread_id };
}

export function messageFrame(addr: LaneAddress, m: StoredMessage): MessageFrame {
  return { v: 1, type: 'message', ...at(addr), payload: toWire(m) };
}

/**
 * Questions waiting for an answer, restated to a device paired while they wait: per picker, the busy
 * frame that says its lane waits, then the picker frame as posted (those without a kept frame, or in a
 * lane that is gone, are skipped).
 */
export function waitingPickerFrames(
  channels: ChannelDirectory,
  pickers: Iterable<{ lane: string; frame?: ServerFrame }>,
): ServerFrame[] {
  const frames: ServerFrame[] = [];
  for (const picker of pickers) {
    const addr = channels.address(picker.lane);
    if (!picker.frame || !addr) continue;
    frames.push({ v: 1, type: 'agent.busy', ...at(addr), payload: { reason: 'waiting_input' } }, picker.frame);
  }
  return frames;
}

/** A tool call as it ended, kept with the reply for history (the `tools` extension); `ok` undefined: not known. */
export function endedTool(
  call: { index: number; name: string; preview?: string },
  ok: boolean | undefined,
  duration?: number,
): HistoryTool {
  return {
    index: call.index,
    name: call.name,
    ...(ok !== undefined ? { ok } : {}),
    ...(duration !== undefined ? { duration } : {}),
    ...(call.preview ? { preview: call.preview } : {}),
  };
}

/** A bounded string from untrusted input, or undefined. */
export function optString(value: unknown, max: number): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= max ? value : undefined;
}
