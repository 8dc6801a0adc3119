// Shapes shared by the reducer's handlers.
import type { IrisDB } from '../db';

/** A frame whose envelope has been checked; every payload field is still untrusted. */
export interface Incoming {
  type: string;
  chat_id?: string;
  thread_id?: string;
  payload: Record<string, unknown>;
}

export interface ReduceContext {
  /** Arrival time (epoch ms) for rows the gateway gives no ts. */
  now: number;
  /** Gateway URL whose sync cursor `sync.done` advances. */
  gateway?: string;
  /** client_id of the send a `message` echo answers, when the caller matched it by request id (spec §5). */
  clientId?: string;
  /** The frame came by sync replay (spec README §8): its state is applied, but it is old news, not to be announced. */
  replay?: boolean;
}

/** Applies one frame inside the caller's transaction. Must not throw on any payload. */
export type Handler = (db: IrisDB, frame: Incoming, ctx: ReduceContext) => Promise<void>;
