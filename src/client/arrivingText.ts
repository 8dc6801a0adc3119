// The newest text of each streamed message as this tab receives it, before the store has it (the frame
// pipeline's onText): a bubble paints it at once instead of after the write and the lane's re-read,
// which under load took 100–300 ms (issue 17). Display only: the store stays the truth, and a bubble
// uses this only while its stored row is still streaming. Only the tab holding the socket has any.
import { createSignal, type Signal } from 'solid-js';

/** Messages kept: a stream that never ended must not keep its text here forever. */
const KEPT = 20;
/** Signals kept (a bubble may still follow one whose text was let go); those without text go first. */
const SIGNALS_KEPT = 200;

export interface ArrivingText {
  /** The newest text received for the message, if newer than what a streaming row may show. */
  get(messageId: string): string | undefined;
  /** The pipeline's onText: `undefined` takes the message's text back. */
  set(messageId: string, text: string | undefined): void;
  /** Forgets every text: the session that gave them ended (another tab may write the store now). */
  clear(): void;
}

// A signal per message rather than solid-js/store: this runs in the entry chunk, which the store's code
// would make heavier on every first load.
export function createArrivingText(): ArrivingText {
  const signals = new Map<string, Signal<string | undefined>>();
  const order: string[] = [];
  const signalOf = (messageId: string): Signal<string | undefined> => {
    let signal = signals.get(messageId);
    if (!signal) {
      signal = createSignal<string | undefined>(undefined);
      signals.set(messageId, signal);
      if (signals.size > SIGNALS_KEPT)
        for (const [id, [read]] of signals) {
          if (signals.size <= SIGNALS_KEPT) break;
          if (read() === undefined && id !== messageId) signals.delete(id);
        }
    }
    return signal;
  };
  const write = (messageId: string, text: string | undefined) => {
    const signal = text === undefined ? signals.get(messageId) : signalOf(messageId);
    signal?.[1](text);
  };
  return {
    get: (messageId) => signalOf(messageId)[0](),
    set(messageId, text) {
      const at = order.indexOf(messageId);
      if (at >= 0) order.splice(at, 1);
      if (text !== undefined) order.push(messageId);
      const evicted = order.length > KEPT ? order.splice(0, order.length - KEPT) : [];
      for (const id of evicted) write(id, undefined);
      write(messageId, text);
    },
    clear() {
      for (const id of order.splice(0)) write(id, undefined);
    },
  };
}
