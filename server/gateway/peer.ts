// What the gateway's parts know of one paired socket. The socket itself is a ClientSession
// (clientsession.ts); delivery, the agents and the media transfers see only these interfaces, so none of
// them imports the session back.
import type { ErrorCode, ServerFrame } from '../../src/protocol';

/** A live, paired socket. */
export interface Peer {
  readonly deviceId: string;
  /** Send an encoded frame; coalescable frames may be skipped when the socket is backed up. */
  sendEncoded(text: string, coalescable: boolean): void;
}

/** The socket a request came from: it gets the direct answer (not outboxed) or the error. */
export interface Requester extends Peer {
  send(frame: ServerFrame): void;
  error(code: ErrorCode, message: string, id?: number): void;
}
