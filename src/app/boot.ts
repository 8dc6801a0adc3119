// The first thing the entry evaluates (main.tsx's first import): a lane opened at start (its address, or
// the home that opens the default channel) is painted as plain text from IndexedDB before the rest of the
// entry (Solid, Dexie, the runtime, the app) is evaluated, which under a slow CPU took longer than the
// read and the paint together. The top-level await holds the rest of the bundled entry until the head is
// on screen: the bundle runs its modules in order, and this one comes first.
import { laneOfPath } from '../protocol/lanes';
import { readLaneHead } from '../store/laneHead';
import { readPairedHint } from '../runtime/pairedHint';
import { HEAD_MESSAGES, showLaneHead, type LaneHeadView } from './components/messages/LaneHead';
import { prepareTimeFormat } from './components/messages/time';

/** A lane is about to be shown: its address was opened, or the home of a browser that has paired (its mark). */
function expectsLane(address: unknown): boolean {
  return !!address || readPairedHint();
}

async function paintHead(): Promise<LaneHeadView | undefined> {
  const path = location.hash.slice(1).split(/[?#]/)[0] || '/';
  const address = laneOfPath(path);
  if (!address && path !== '/') return undefined;
  const reading = readLaneHead(address?.lane, HEAD_MESSAGES);
  // The head shows each message's time, and the page's first Intl formatter loads the locale's data
  // (15-20 ms of the main thread here, four times that on a slow CPU): made while IndexedDB opens and
  // reads, it is not added after them. Not for a browser that will show the pairing page instead.
  if (expectsLane(address)) prepareTimeFormat();
  const stored = await reading;
  // The home opens a thread by another address (laneHref): only a channel is guessed here.
  if (!stored || (!address && stored.channel?.kind === 'thread')) return undefined;
  const view = showLaneHead(stored);
  // Once painted, not merely put in the page: what runs next is one long task. And one task later than
  // the frame: whatever that frame queued (an input's handler, an observer of the page) runs first.
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(() => setTimeout(resolve, 0), 0)));
  return view;
}

/** The lane head on screen, if one was painted at start; Root.tsx takes it away once the lane is shown. */
export const startHead: LaneHeadView | undefined = await paintHead().catch(() => undefined);
