// Which lane the address shows. The Shell is the router's root, so it reads the path itself.

export interface LaneLocation {
  chatId: string;
  threadId?: string;
  /** thread_id ?? chat_id (spec README §4). */
  lane: string;
}

function decode(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined; // a malformed address shows no lane rather than throwing
  }
}

export function laneFromPath(pathname: string): LaneLocation | undefined {
  const match = /^\/c\/([^/]+)(?:\/t\/([^/]+))?\/?$/.exec(pathname);
  if (!match) return undefined;
  const chatId = decode(match[1]!);
  const threadId = match[2] !== undefined ? decode(match[2]) : undefined;
  if (!chatId || (match[2] !== undefined && !threadId)) return undefined;
  return { chatId, threadId, lane: threadId ?? chatId };
}
