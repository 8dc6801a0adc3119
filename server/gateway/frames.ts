// Small builders for server frames addressed to a lane.
import type { MessageFrame } from '../../src/protocol';
import { toWire, type StoredMessage } from './conversations';
import type { LaneAddress } from './directory';

/** The envelope scope of a lane: chat_id, plus thread_id for a thread (spec README §4). */
export function at(addr: LaneAddress): { chat_id: string; thread_id?: string } {
  return addr.thread_id === undefined
    ? { chat_id: addr.chat_id }
    : { chat_id: addr.chat_id, thread_id: addr.thread_id };
}

export function messageFrame(addr: LaneAddress, m: StoredMessage): MessageFrame {
  return { v: 1, type: 'message', ...at(addr), payload: toWire(m) };
}

/** A bounded string from untrusted input, or undefined. */
export function optString(value: unknown, max: number): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= max ? value : undefined;
}
