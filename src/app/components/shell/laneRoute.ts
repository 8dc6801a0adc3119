// Which lane the address shows. The Shell is the router's root, so it reads the path itself.
import { laneOfPath } from '../../../protocol/lanes';

export interface LaneLocation {
  chatId: string;
  threadId?: string;
  /** thread_id ?? chat_id (spec README §4). */
  lane: string;
}

export function laneFromPath(pathname: string): LaneLocation | undefined {
  const address = laneOfPath(pathname);
  return address && { chatId: address.chat_id, threadId: address.thread_id, lane: address.lane };
}
