// The wire scope of the lane a frame is about (spec README §4), resolved through the directory.
import { laneOf } from '../../protocol/lanes';
import type { IrisDB } from '../db';
import { laneScope, type LaneScope } from '../models/channels';
import type { Incoming } from './types';

/**
 * The lane and its wire scope. A frame carrying both ids is taken as given; one carrying only a
 * thread's own chat_id (tolerated, §4) is resolved through the directory to chat_id = parent.
 */
export async function frameScope(db: IrisDB, frame: Incoming): Promise<LaneScope | undefined> {
  const lane = laneOf(frame);
  if (lane === undefined) return undefined;
  if (frame.thread_id !== undefined && frame.chat_id !== undefined && frame.thread_id !== frame.chat_id) {
    return { lane, chat_id: frame.chat_id, thread_id: frame.thread_id };
  }
  const scope = await laneScope(db, lane);
  if (frame.thread_id !== undefined && scope.thread_id === undefined) scope.thread_id = frame.thread_id;
  return scope;
}
