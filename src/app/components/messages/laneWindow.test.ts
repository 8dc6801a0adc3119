import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IrisDB } from '../../../store/db';
import type { ActivityRow, MessageRow } from '../../../store/schema';
import { freshDb } from '../../../testing/db';
import { until } from '../../../testing/until';
import { TAIL_AHEAD, createLaneWindow, createListedIds, laneMessageIds, orphanTurn, windowRange } from './laneWindow';

// The app runs Solid's browser build (reactive); Node would resolve the server build.
vi.mock('solid-js', async () => {
  // @ts-expect-error the browser build has no .d.ts of its own; its types are solid-js's.
  return await import('solid-js/dist/solid.js');
});
const { createRoot, createSignal } = await import('solid-js');

let db: IrisDB;
let dispose: (() => void) | undefined;
afterEach(() => {
  dispose?.();
  db?.close();
});

function message(i: number, lane = 'L', extra: Partial<MessageRow> = {}): MessageRow {
  return {
    message_id: `m${i}`,
    lane,
    chat_id: lane,
    role: i % 2 ? 'user' : 'assistant',
    text: `text ${i}`,
    ts: 1000 + i,
    status: 'final',
    ...extra,
  };
}

/**
 * Lane `lane`'s ids and its window over `db`, rows `first` to `last` (setRange moves it), with the
 * activity of `extraTurn` and the newest `tail()` ids; disposed after the test.
 */
function laneWindowOf(
  lane: string,
  [first, last]: [number, number],
  more: { extraTurn?: string; tail?: () => number } = {},
) {
  const [range, setRange] = createSignal<[number, number]>([first, last]);
  let ids!: () => string[] | undefined;
  let win!: ReturnType<typeof createLaneWindow>;
  dispose = createRoot((d) => {
    ids = laneMessageIds(db, lane);
    win = createLaneWindow(
      db,
      () => ids() ?? [],
      range,
      () => more.extraTurn,
      more.tail,
    );
    return d;
  });
  return { ids, win, setRange };
}

describe('windowRange', () => {
  it('pads the visible rows on both sides and snaps to steps', () => {
    expect(windowRange(100, 110, 1000)).toEqual([50, 175]);
    expect(windowRange(101, 111, 1000)).toEqual([50, 175]);
  });
  it('stays inside the list', () => {
    expect(windowRange(0, 5, 20)).toEqual([0, 20]);
    expect(windowRange(-1, -1, 0)).toEqual([0, 0]);
  });
});

describe('lane window', () => {
  it('lists a lane’s ids in time order and keeps the rows of the window in step with the DB', async () => {
    db = freshDb();
    // Out of insertion order, plus another lane that must not show.
    await db.messages.bulkPut([message(3), message(1), message(2), message(9, 'other')]);
    const { ids, win, setRange } = laneWindowOf('L', [0, 2]);
    await until(() => ids()?.length === 3);
    expect(ids()).toEqual(['m1', 'm2', 'm3']);
    await until(() => win.rows.m2?.text === 'text 2');
    expect(Object.keys(win.rows).sort()).toEqual(['m1', 'm2']);

    // A streamed update lands in the row that is on screen.
    await db.messages.update('m2', { text: 'text 2, longer' });
    await until(() => win.rows.m2?.text === 'text 2, longer');

    // Scrolling moves the window: rows outside it are let go.
    setRange([2, 3]);
    await until(() => win.rows.m3 !== undefined && win.rows.m1 === undefined);
    expect(Object.keys(win.rows)).toEqual(['m3']);
  });

  it('a scroll step reads only the rows that came into the window; the rest keep their reads', async () => {
    db = freshDb();
    await db.messages.bulkPut(Array.from({ length: 100 }, (_, i) => message(i + 1)));
    const read: string[][] = [];
    const bulkGet = db.messages.bulkGet.bind(db.messages);
    vi.spyOn(db.messages, 'bulkGet').mockImplementation(((keys: string[]) => {
      read.push(keys);
      return bulkGet(keys);
    }) as typeof db.messages.bulkGet);
    const { win, setRange } = laneWindowOf('L', [0, 50]);
    await until(() => Object.keys(win.rows).length === 50);
    read.length = 0;
    setRange([25, 75]);
    await until(() => win.rows.m75 !== undefined && win.rows.m1 === undefined);
    expect(Object.keys(win.rows)).toHaveLength(50);
    // One block of 25 ids read, the one that came in.
    expect(read).toEqual([Array.from({ length: 25 }, (_, i) => `m${i + 51}`)]);
    // A row of a block that stayed is still followed.
    const kept = win.rows.m40;
    await db.messages.update('m30', { text: 'edited' });
    await until(() => win.rows.m30?.text === 'edited');
    expect(win.rows.m40).toBe(kept);
    // A row deleted from the lane leaves the window; its neighbours stay.
    await db.messages.delete('m30');
    await until(() => win.rows.m30 === undefined);
    expect(win.rows.m31?.text).toBe('text 31');
  });

  it('reads the newest ids ahead as well while asked to (the list follows its end)', async () => {
    db = freshDb();
    await db.messages.bulkPut(Array.from({ length: 100 }, (_, i) => message(i + 1)));
    const [tail, setTail] = createSignal(0);
    const { win } = laneWindowOf('L', [0, 10], { tail });
    await until(() => win.rows.m10 !== undefined);
    expect(win.rows.m100).toBeUndefined();
    setTail(TAIL_AHEAD);
    // From the block boundary at or before the 40th newest: ids 51 to 100.
    await until(() => win.rows.m100 !== undefined);
    expect(win.rows.m51).toBeDefined();
    expect(win.rows.m50).toBeUndefined();
    expect(win.rows.m10).toBeDefined();
    setTail(0);
    await until(() => win.rows.m100 === undefined);
    expect(win.rows.m10).toBeDefined();
  });

  it('gathers the activity of the turns in the window, in arrival order', async () => {
    db = freshDb();
    await db.messages.bulkPut([message(1, 'L', { turn: 'L#1' }), message(2, 'L', { turn: 'L#2' })]);
    const activity = (id: string, turn: string, order: number): ActivityRow => ({
      id,
      lane: 'L',
      turn,
      kind: 'tool',
      ts: 5,
      order,
      index: order,
      name: id,
      state: 'ok',
    });
    await db.activity.bulkPut([
      activity('b', 'L#1', 1),
      activity('a', 'L#1', 0),
      activity('c', 'L#2', 0),
      activity('x', 'L#9', 0),
    ]);
    const { win } = laneWindowOf('L', [0, 1], { extraTurn: 'L#9' });
    await until(() => win.activity['L#1']?.length === 2 && win.activity['L#9']?.length === 1);
    expect(win.activity['L#1']!.map((a) => a.id)).toEqual(['a', 'b']);
    expect(win.activity['L#2']).toBeUndefined(); // its message is outside the window
  });

  it('reads the stored rows of its messages’ files with them, and follows their changes', async () => {
    db = freshDb();
    const ref = (id: string) => ({
      media_id: id,
      kind: 'image' as const,
      mime: 'image/png',
      size: 10,
      filename: `${id}.png`,
    });
    await db.messages.bulkPut([
      message(1, 'L', { media: [ref('p1')] }),
      message(2, 'L'),
      message(3, 'L', { media: [ref('p3'), ref('gone')] }),
    ]);
    await db.media.bulkPut([
      { ...ref('p1'), state: 'ready', lastUsed: 0, width: 64, height: 48 },
      { ...ref('p3'), state: 'remote', lastUsed: 0 },
      { ...ref('other'), state: 'ready', lastUsed: 0 },
    ]);
    const { win } = laneWindowOf('L', [0, 3]);
    await until(() => win.rows.m3 !== undefined && win.media.p3 !== undefined);
    // With the rows that name them, not a read later: a picture's box has its size on its first frame.
    expect(win.media.p1).toMatchObject({ width: 64, height: 48, state: 'ready' });
    expect(win.media.gone).toBeUndefined(); // named, never stored
    expect(win.media.other).toBeUndefined(); // stored, not in the window
    await db.media.update('p3', { state: 'ready', width: 10, height: 20 });
    await until(() => win.media.p3?.state === 'ready');
    expect(win.media.p3).toMatchObject({ width: 10, height: 20 });
  });

  it('shows a working turn at the end only while no message belongs to it', async () => {
    db = freshDb();
    await db.lanes.put({ lane: 'L', readTs: 0, busy: true, typing: false, turn: 'L#1', turnSeq: 1 });
    let orphan!: () => string | undefined;
    dispose = createRoot((d) => {
      orphan = orphanTurn(db, 'L');
      return d;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(orphan()).toBeUndefined(); // no activity yet
    await db.activity.put({
      id: 'L#1:tool:0',
      lane: 'L',
      turn: 'L#1',
      kind: 'tool',
      ts: 1,
      order: 0,
      index: 0,
      name: 'search',
      state: 'running',
    });
    await until(() => orphan() === 'L#1');
    await db.messages.put(message(1, 'L', { role: 'assistant', status: 'streaming', turn: 'L#1' }));
    await until(() => orphan() === undefined);
  });
});

describe('listed ids', () => {
  /** createListedIds over signals: the stored ids, which of them are read, and whether the list follows its end. */
  function listedOf(first: string[] | undefined, holdMs?: number) {
    const [stored, setStored] = createSignal(first);
    const [read, setRead] = createSignal<ReadonlySet<string>>(new Set());
    const [following, setFollowing] = createSignal(true);
    let listed!: () => string[] | undefined;
    dispose = createRoot((d) => {
      listed = createListedIds(stored, (id) => read().has(id), following, holdMs);
      return d;
    });
    const markRead = (...ids: string[]) => setRead((was) => new Set([...was, ...ids]));
    return { listed, setStored, markRead, setFollowing };
  }
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `m${from + i}`);

  it('lists ids appended at the end only once their rows are read', () => {
    const { listed, setStored, markRead } = listedOf(undefined);
    setStored(['m1', 'm2']); // the first answer is listed at once (the lane head covers the first paint)
    expect(listed()).toEqual(['m1', 'm2']);
    setStored(['m1', 'm2', 'm3', 'm4']);
    expect(listed()).toEqual(['m1', 'm2']);
    markRead('m3');
    expect(listed()).toEqual(['m1', 'm2']);
    markRead('m4');
    expect(listed()).toEqual(['m1', 'm2', 'm3', 'm4']);
  });

  it('of a long burst, waits only for the newest ids the list will show', () => {
    const { listed, setStored, markRead } = listedOf(['m1']);
    setStored(range(1, 301));
    markRead(...range(301 - TAIL_AHEAD + 2, 301));
    expect(listed()).toEqual(['m1']);
    markRead(`m${301 - TAIL_AHEAD + 1}`);
    expect(listed()).toHaveLength(301);
  });

  it('lists at once a change that brings nothing unread among the newest ids: a delete, an older page', () => {
    const { listed, setStored } = listedOf(range(2, 101));
    setStored(range(2, 100));
    expect(listed()).toEqual(range(2, 100));
    setStored(range(1, 100));
    expect(listed()).toEqual(range(1, 100));
  });

  it('lists a message put in among the newest, or the echo that takes the pending bubble’s place, once read', () => {
    const { listed, setStored, markRead } = listedOf(['m1', 'm2', 'local:c1']);
    // The echo replaces the pending bubble, and the reply starts, in one change: both wait for their rows.
    setStored(['m1', 'm2', 'm3', 'r1']);
    expect(listed()).toEqual(['m1', 'm2', 'local:c1']);
    markRead('m3');
    expect(listed()).toEqual(['m1', 'm2', 'local:c1']);
    markRead('r1');
    expect(listed()).toEqual(['m1', 'm2', 'm3', 'r1']);
    setStored(['m1', 'm2', 'm2b', 'm3', 'r1']);
    expect(listed()).toEqual(['m1', 'm2', 'm3', 'r1']);
    markRead('m2b');
    expect(listed()).toEqual(['m1', 'm2', 'm2b', 'm3', 'r1']);
  });

  it('lists a new end at once when the list does not follow it, or stops following while it waits', () => {
    const { listed, setStored, setFollowing } = listedOf(['m1']);
    setFollowing(false);
    setStored(['m1', 'm2']);
    expect(listed()).toEqual(['m1', 'm2']);
    setFollowing(true);
    setStored(['m1', 'm2', 'm3']);
    expect(listed()).toEqual(['m1', 'm2']);
    setFollowing(false);
    expect(listed()).toEqual(['m1', 'm2', 'm3']);
  });

  it('lists a tail whose rows never come after the hold, and waits afresh for the next one', async () => {
    const { listed, setStored, markRead } = listedOf(['m1'], 40);
    setStored(['m1', 'm2']);
    expect(listed()).toEqual(['m1']);
    await until(() => listed()?.length === 2);
    setStored(['m1', 'm2', 'm3']);
    expect(listed()).toHaveLength(2);
    markRead('m3');
    expect(listed()).toHaveLength(3);
  });
});
