// Which server frame answers which request (spec README §2): the matching both the app's connection
// and the service worker's one-shot connection settle their requests by.
import type { ClientFrame, ClientFrameType, ServerFrame, ServerFrameType } from './frames';

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

/** A request waiting for its answer. */
export interface Awaiting {
  /** The request as sent (with its id). */
  frame: ClientFrame;
  /** The answer may come without an id (matched by type then), e.g. `sync.done`. */
  matchWithoutId: boolean;
}

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

/** Whether `answer`, carrying no id, settles a request that accepts an answer without one. */
export function answersWithoutId(waiting: Awaiting, answer: ServerFrame): boolean {
  return (
    waiting.matchWithoutId &&
    answer.type !== 'error' &&
    answer.id === undefined &&
    (ANSWERS[waiting.frame.type]?.includes(answer.type) ?? false)
  );
}

/** An echo carrying a client_id answers only the send with that client_id. */
function sameSend(request: ClientFrame, answer: ServerFrame): boolean {
  if (request.type !== 'message.send' || answer.type !== 'message') return true;
  const sent = request.payload.client_id;
  const echoed = (answer.payload as { client_id?: unknown }).client_id;
  return echoed === undefined || sent === undefined || echoed === sent;
}
