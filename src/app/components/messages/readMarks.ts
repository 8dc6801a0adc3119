// Read marks: the newest message seen while the page is visible is told to the gateway (and so to the
// other devices); leaving it (scrolling up, hiding the page, leaving the lane) is told too.
import { createEffect, createSignal, onCleanup, onMount, type Accessor } from 'solid-js';
import type { IrisClient } from '../../../client';
import type { MessageRow } from '../../../store/schema';

export function useReadMarks(options: {
  lane: string;
  client: Pick<IrisClient, 'markRead' | 'stopReading'>;
  ids: Accessor<string[] | undefined>;
  /** The stored row of a message in the list's window. */
  row: (messageId: string) => MessageRow | undefined;
  atEnd: Accessor<boolean>;
  /** The reader has been placed (at the newest message, or at the one asked for). */
  ready: Accessor<boolean>;
}): void {
  const { client, ids, atEnd, ready } = options;
  const [pageVisible, setPageVisible] = createSignal(document.visibilityState === 'visible');
  const onVisibility = () => setPageVisible(document.visibilityState === 'visible');
  onMount(() => {
    document.addEventListener('visibilitychange', onVisibility);
    onCleanup(() => document.removeEventListener('visibilitychange', onVisibility));
  });

  let markedFor: string | undefined;
  createEffect(() => {
    const list = ids();
    const newest = list?.[list.length - 1];
    if (!newest || !atEnd() || !pageVisible() || !ready()) {
      // No longer on the newest message: a reply it was following counts as unread once it ends.
      if (markedFor !== undefined)
        void Promise.resolve(client.stopReading(options.lane)).catch((err: unknown) =>
          console.warn('iris: could not stop following the reply', err),
        );
      markedFor = undefined;
      return;
    }
    // A streamed reply gets its final time at the end: mark again then.
    const row = options.row(newest);
    const mark = `${newest}:${row?.ts}:${row?.status}`;
    if (mark === markedFor) return;
    markedFor = mark;
    void Promise.resolve(client.markRead(options.lane)).catch((err: unknown) =>
      console.warn('iris: could not mark the lane read', err),
    );
  });

  onCleanup(
    () =>
      void Promise.resolve(client.stopReading(options.lane)).catch((err: unknown) =>
        console.warn('iris: could not stop following the reply', err),
      ),
  );
}
