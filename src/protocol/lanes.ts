// Lane addressing (spec README §4): a lane is keyed by thread_id ?? chat_id; a thread's frames carry
// chat_id = parent and thread_id = the thread, and a frame or push naming only the thread's own id is
// tolerated. The reducer, the app's routes and the service worker all address lanes through here.

/** A lane as the wire addresses it: the chat, the thread within it, and the lane key. */
export interface LaneAddress {
  chat_id: string;
  thread_id?: string;
  /** thread_id ?? chat_id. */
  lane: string;
}

/** The lane a frame belongs to: thread_id ?? chat_id (undefined when it names neither). */
export function laneOf(frame: { chat_id?: string; thread_id?: string }): string | undefined {
  return frame.thread_id ?? frame.chat_id;
}

/**
 * The address named by any of its tolerated forms: chat_id with thread_id, chat_id alone, or only
 * `lane` (a thread's own id, then taken as the chat: the directory resolves it to its parent).
 */
export function laneAddress(target: { chat_id?: string; thread_id?: string; lane?: string }): LaneAddress | undefined {
  const chat = target.chat_id ?? target.lane;
  if (!chat) return undefined;
  // A gateway that sends only the thread's own id in `lane`, beside the parent's chat_id.
  const thread = target.thread_id ?? (target.lane && target.lane !== chat ? target.lane : undefined);
  return thread ? { chat_id: chat, thread_id: thread, lane: thread } : { chat_id: chat, lane: chat };
}

/** The app's route of a lane: `/c/<chat>[/t/<thread>]` (shared by the app and the service worker). */
export function lanePath(address: { chat_id: string; thread_id?: string }): string {
  const chat = `/c/${encodeURIComponent(address.chat_id)}`;
  return address.thread_id ? `${chat}/t/${encodeURIComponent(address.thread_id)}` : chat;
}

function decode(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined; // a malformed address shows no lane rather than throwing
  }
}

/** The lane a route path names (`/c/<chat>[/t/<thread>]`), or undefined for any other path. */
export function laneOfPath(pathname: string): LaneAddress | undefined {
  const match = /^\/c\/([^/]+)(?:\/t\/([^/]+))?\/?$/.exec(pathname);
  if (!match) return undefined;
  const chatId = decode(match[1]!);
  const threadId = match[2] !== undefined ? decode(match[2]) : undefined;
  if (!chatId || (match[2] !== undefined && !threadId)) return undefined;
  return threadId ? { chat_id: chatId, thread_id: threadId, lane: threadId } : { chat_id: chatId, lane: chatId };
}
