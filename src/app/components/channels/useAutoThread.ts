// Follows a thread the gateway minted for the lane on screen (channel.created{auto:true}): the
// reducer leaves its id in the lane's row (`autoThread`); the UI moves into it once and clears it.
import { useNavigate } from '@solidjs/router';
import { createEffect, createMemo, on, type Accessor } from 'solid-js';
import { live } from '../../../store/live';
import { getChannel } from '../../../store/models/channels';
import { clearAutoThread, storedLane } from '../../../store/models/lanes';
import { useIris } from '../../../runtime';
import type { LaneLocation } from '../shell/laneRoute';
import { laneHref } from './channelTree';

interface Hint {
  lane: string;
  thread: string;
  href?: string;
}

export function useAutoThread(location: Accessor<LaneLocation | undefined>): void {
  const { db } = useIris();
  const navigate = useNavigate();
  // Per lane on screen: null until the first read, then the hint or undefined.
  const hint = createMemo(() => {
    const lane = location()?.lane;
    if (!lane) return () => null;
    return live<Hint | undefined | null>(async () => {
      const row = await storedLane(db, lane);
      if (!row?.autoThread) return undefined;
      const thread = await getChannel(db, row.autoThread);
      return { lane, thread: row.autoThread, href: thread ? laneHref(thread) : undefined };
    }, null);
  });

  createEffect(
    on(
      () => hint()(),
      (found, previous) => {
        const here = location();
        if (!found || !here || found.lane !== here.lane) return;
        // Clear first, so another tab or a re-run does not move the user twice.
        void clearAutoThread(db, found.lane).catch((err: unknown) =>
          console.warn('iris: could not clear the new-thread hint', err),
        );
        // A hint already there when the lane opened is stale (the thread was made while the user
        // was elsewhere): drop it rather than pull them away from what they just chose.
        if (previous === null) return;
        navigate(found.href ?? `/c/${encodeURIComponent(here.chatId)}/t/${encodeURIComponent(found.thread)}`);
      },
    ),
  );
}
