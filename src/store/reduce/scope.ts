// Which lane a frame is about, and how to address it on the wire (spec README §4).
import type { IrisDB } from '../db';
import { laneScope, type LaneScope } from '../models/channels';
import type { Incoming } from './types';

/** thread_id ?? chat_id, or undefined when the frame names neither. */
export function frameLane(frame: Incoming): string | undefined {
  return frame.thread_id ?? frame.chat_id;
}

/**
 * The lane and its wire scope. A frame carrying both ids is taken as given; one carrying only a
 * thread's own chat_id (tolerated, §4) is resolved through the directory to chat_id = parent.
 */
export async function frameScope(db: IrisDB, frame: Incoming): Promise<LaneScope | undefined> {
  const lane = frameLane(frame);
  if (lane === undefined) return undefined;
  if (frame.thread_id !== undefined && frame.chat_id !== undefined && frame.thread_id !== frame.chat_id) {
    return { lane, chat_id: frame.chat_id, thread_id: frame.thread_id };
  }
  const scope = await laneScope(db, lane);
  if (frame.thread_id !== undefined && scope.thread_id === undefined) scope.thread_id = frame.thread_id;
  return scope;
}
