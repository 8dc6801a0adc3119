// The newest text of each streamed message as this tab receives it, before the store has it (the frame
// pipeline's onText): a bubble paints it at once instead of after the write and the lane's re-read,
// which under load took 100–300 ms (issue 17). Display only: the store stays the truth, and a bubble
// uses this only while its stored row is still streaming. Only the tab holding the socket has any.
import { createStore, produce } from 'solid-js/store';

/** Messages kept: a stream that never ended must not keep its text here forever. */
const KEPT = 20;

export interface ArrivingText {
  /** The newest text received for the message, if newer than what a streaming row may show. */
  get(messageId: string): string | undefined;
  /** The pipeline's onText: `undefined` takes the message's text back. */
  set(messageId: string, text: string | undefined): void;
  /** Forgets every text: the session that gave them ended (another tab may write the store now). */
  clear(): void;
}

export function createArrivingText(): ArrivingText {
  const [texts, setTexts] = createStore<Record<string, string | undefined>>({});
  const order: string[] = [];
  return {
    get: (messageId) => texts[messageId],
    set(messageId, text) {
      const at = order.indexOf(messageId);
      if (at >= 0) order.splice(at, 1);
      if (text !== undefined) order.push(messageId);
      const evicted = order.length > KEPT ? order.splice(0, order.length - KEPT) : [];
      setTexts(
        produce((all) => {
          for (const id of evicted) delete all[id];
          if (text === undefined) delete all[messageId];
          else all[messageId] = text;
        }),
      );
    },
    clear() {
      const ids = order.splice(0);
      setTexts(
        produce((all) => {
          for (const id of ids) delete all[id];
        }),
      );
    },
  };
}
