// Which server frame answers which request (spec README §2): the matching both the app's connection
// and the service worker's one-shot connection settle their requests by.
import type { ClientFrame, ClientFrameType, ServerFrame, ServerFrameType } from './frames';
import { laneOf } from './lanes';

/** Which answers settle a request of each type (an `error` with its id always does). */
const ANSWERS: Partial<Record<ClientFrameType, readonly ServerFrameType[]>> = {
  'message.send': ['message'],
  'message.delete': ['message.deleted'],
  history: ['history'],
  search: ['search.results'],
  sync: ['sync.done'],
  'commands.catalog': ['commands.catalog'],
  'commands.complete': ['commands.complete'],
  'channel.create': ['channel.created'],
  'channel.rename': ['channel.renamed'],
  'channel.set_default': ['channel.renamed'],
  'channel.favorite': ['channel.renamed'],
  'channel.icon': ['channel.renamed'],
  'channel.delete': ['channel.deleted'],
  'channel.list': ['channel.list'],
  'media.upload.start': ['media.upload.ack'],
  'media.pull': ['media.pull.end'],
  // The reference gateway acknowledges these with the request id; others may stay silent.
  'agent.stop': ['agent.idle'],
  'agent.steer': ['commentary'],
  'picker.select': ['agent.busy'],
};

/** The request and the answer name the same `key` in their payloads, or the answer names none. */
function same(request: ClientFrame, answer: ServerFrame, key: string): boolean {
  const answered = (answer.payload as Record<string, unknown>)[key];
  return answered === undefined || answered === (request.payload as Record<string, unknown>)[key];
}

/**
 * Answer types a gateway never sends but to answer a request, and how one without an id is told
 * apart from another request's answer. protocol.py's `channel_list` cannot carry an id and its other
 * helpers leave it out unless given one, so such an answer settles the oldest waiting request it
 * fits rather than leaving it to time out.
 */
const ONLY_ANSWERS: Partial<Record<ServerFrameType, (request: ClientFrame, answer: ServerFrame) => boolean>> = {
  'sync.done': () => true,
  'channel.list': () => true,
  'commands.catalog': () => true,
  // One pull and one upload at a time per connection (spec README §10).
  'media.pull.end': () => true,
  'media.upload.ack': (r, a) => same(r, a, 'media_ref'),
  history: (r, a) => laneOf(a) === undefined || laneOf(a) === laneOf(r),
  'search.results': (r, a) => same(r, a, 'query'),
  'commands.complete': (r, a) => same(r, a, 'prefix'),
};

/**
 * Broadcasts that also answer a request, and how one without an id is told to be the answer: protocol.py's
 * `channel_created`, `channel_renamed` and `channel_deleted` take no id (they are broadcasts to every
 * device), and §12 has `channel.renamed` answer favorite and icon. One that describes what a waiting
 * request asked for (the same channel, the name or value it set) settles the oldest such request; one
 * made by another device's request settles nothing, as it fits none waiting here.
 */
const BROADCAST_ANSWERS: Partial<Record<ServerFrameType, (request: ClientFrame, answer: ServerFrame) => boolean>> = {
  'channel.created': (r, a) =>
    (a.payload as { auto?: unknown }).auto !== true && same(r, a, 'name') && same(r, a, 'kind'),
  'channel.renamed': (r, a) => {
    if ((a.payload as { chat_id?: unknown }).chat_id !== r.chat_id) return false;
    if (r.type === 'channel.rename') return same(r, a, 'name');
    if (r.type === 'channel.favorite') return same(r, a, 'favorite');
    if (r.type === 'channel.icon') return same(r, a, 'icon');
    return (a.payload as { is_default?: unknown }).is_default !== false; // channel.set_default
  },
  'channel.deleted': (r, a) => (a.payload as { chat_id?: unknown }).chat_id === r.chat_id,
};

/**
 * Whether `answer`, carrying the request's id, settles `request`. A replayed frame can carry an id
 * from an older connection: the type must fit too, and an echo with a client_id must be the echo of
 * this very send.
 */
export function answersById(request: ClientFrame, answer: ServerFrame): boolean {
  const types = ANSWERS[request.type];
  const fits = answer.type === 'error' || !types || types.includes(answer.type);
  return fits && sameSend(request, answer);
}

/** Whether a frame of this type can answer a request without its id (the test gateway's answersWithoutIds quirk leaves it out). */
export function answersWithoutIdType(type: string): boolean {
  return Object.hasOwn(ONLY_ANSWERS, type) || Object.hasOwn(BROADCAST_ANSWERS, type);
}

/** Whether `answer`, carrying no id, settles `request` (errors without an id settle nothing). */
export function answersWithoutId(request: ClientFrame, answer: ServerFrame): boolean {
  if (answer.id !== undefined) return false;
  const fits = ONLY_ANSWERS[answer.type] ?? BROADCAST_ANSWERS[answer.type];
  return fits !== undefined && (ANSWERS[request.type]?.includes(answer.type) ?? false) && fits(request, answer);
}

/**
 * Whether an `error` without an id can answer `request`, when that is the one request waiting and
 * nothing was sent after it (the connection checks both): protocol.py's `error()` leaves the id out
 * unless given one, and a gateway answers a connection's frames in order. One naming a lane must name
 * the request's (its thread's own id or its chat's).
 */
export function errorMayAnswer(request: ClientFrame, error: ServerFrame): boolean {
  if (error.type !== 'error' || error.id !== undefined) return false;
  const lane = laneOf(error);
  return lane === undefined || lane === request.thread_id || lane === request.chat_id;
}

/** An echo carrying a client_id answers only the send with that client_id. */
function sameSend(request: ClientFrame, answer: ServerFrame): boolean {
  if (request.type !== 'message.send' || answer.type !== 'message') return true;
  const sent = request.payload.client_id;
  const echoed = (answer.payload as { client_id?: unknown }).client_id;
  return echoed === undefined || sent === undefined || echoed === sent;
}
