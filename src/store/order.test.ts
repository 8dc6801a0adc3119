import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IrisDB } from './db';
import { laneMessageIds, laneMessages } from './models/messages';
import { queueSend } from './models/outbox';
import { applyFrame, applyFrames } from './reducer';
import { freshDb, frame } from '../testing/db';
import type { ServerFrame } from '../protocol';
import { ORDER_STEP, arrivalTs, sortTs } from './order';

let db: IrisDB;
beforeEach(() => {
  db = freshDb();
});
afterEach(() => db.close());

const A = { chat_id: 'A' };
const SECOND = 1_796_000_000; // a gateway's int(time.time()), December 2026
const T = SECOND * 1000;

// Ids in the opposite order of the messages: a tie broken by id puts the later one first.
const exchange = (n: number, ts: number | undefined): ServerFrame[] => {
  const at = ts === undefined ? {} : { ts };
  return [
    frame('message', { message_id: `z${n}`, role: 'user', text: `question ${n}`, ...at }, A),
    frame('message.start', { message_id: `y${n}`, role: 'assistant' }, A),
    frame('message.stop', { message_id: `y${n}`, final_text: `answer ${n}`, ...at }, A),
  ];
};
const texts = async () => (await laneMessages(db, 'A')).map((m) => m.text);
const IN_ORDER = ['question 1', 'answer 1', 'question 2', 'answer 2'];

describe('messages the gateway gives the same time keep the order it gave them in', () => {
  it('live, from a gateway stamping whole seconds: own sends and streamed replies, each after the one before', async () => {
    for (const n of [1, 2]) {
      const sentAt = T + n * 300;
      await queueSend(db, { client_id: `c${n}`, lane: 'A', chat_id: 'A', text: `question ${n}`, now: sentAt });
      const echo = frame(
        'message',
        { message_id: `z${n}`, role: 'user', text: `question ${n}`, client_id: `c${n}`, ts: SECOND },
        A,
      );
      const [, start, stop] = exchange(n, SECOND);
      await applyFrame(db, echo, { now: sentAt + 20 });
      await applyFrame(db, start!, { now: sentAt + 50 });
      await applyFrame(db, stop!, { now: sentAt + 90 });
    }
    expect(await texts()).toEqual(IN_ORDER);
    // The time shown is the gateway's second.
    for (const m of await laneMessages(db, 'A')) expect(Math.floor(m.ts)).toBe(T);
  });

  it('live, from a gateway without streaming: a reply in the same second goes after the question', async () => {
    for (const n of [1, 2]) {
      await applyFrame(
        db,
        frame('message', { message_id: `z${n}`, role: 'user', text: `question ${n}`, ts: SECOND }, A),
      );
      await applyFrame(
        db,
        frame('message', { message_id: `y${n}`, role: 'assistant', text: `answer ${n}`, ts: SECOND }, A),
      );
    }
    expect(await texts()).toEqual(IN_ORDER);
    for (const m of await laneMessages(db, 'A')) expect(Math.floor(m.ts / 1000)).toBe(SECOND);
  });

  it('replayed in one batch, seconds or no ts at all; a second replay changes nothing', async () => {
    for (const ts of [SECOND, undefined]) {
      await db.messages.clear();
      await db.lanes.clear();
      const frames = [...exchange(1, ts), ...exchange(2, ts)];
      await applyFrames(db, frames, { now: T + 5000, replay: true });
      expect(await texts()).toEqual(IN_ORDER);
      const first = await laneMessages(db, 'A');
      await applyFrames(db, frames, { now: T + 9000, replay: true });
      expect(await laneMessages(db, 'A')).toEqual(first);
    }
  });

  it('down a history page, in the page’s order; the same page again changes nothing', async () => {
    const page = frame(
      'history',
      {
        messages: [
          { message_id: 'z1', role: 'user', text: 'question 1', ts: SECOND },
          { message_id: 'y1', role: 'assistant', text: 'answer 1', ts: SECOND },
          { message_id: 'z2', role: 'user', text: 'question 2', ts: SECOND },
          { message_id: 'y2', role: 'assistant', text: 'answer 2', ts: SECOND },
        ],
        has_more: false,
      },
      A,
    );
    await applyFrame(db, page, { now: T + 5000 });
    expect(await texts()).toEqual(IN_ORDER);
    const first = await laneMessageIds(db, 'A');
    await applyFrame(db, page, { now: T + 9000 });
    expect(await laneMessageIds(db, 'A')).toEqual(first);
  });

  it('a millisecond gateway: only an exact tie moves, and by less than a millisecond', async () => {
    await applyFrame(db, frame('message', { message_id: 'z1', role: 'user', text: 'question 1', ts: T + 7 }, A));
    await applyFrame(db, frame('message', { message_id: 'y1', role: 'assistant', text: 'answer 1', ts: T + 7 }, A));
    await applyFrame(db, frame('message', { message_id: 'x0', role: 'user', text: 'earlier', ts: T + 3 }, A));
    expect(await texts()).toEqual(['earlier', 'question 1', 'answer 1']);
    expect((await laneMessages(db, 'A')).map((m) => m.ts)).toEqual([T + 3, T + 7, T + 7 + ORDER_STEP]);
  });
});

describe('a gateway whose clock is ahead of this one', () => {
  it('a streamed reply sits under its question while it streams, and its thinking time is this clock’s', async () => {
    const ahead = T + 5_000; // the gateway's clock, 5 s ahead
    await applyFrame(db, frame('message', { message_id: 'z1', role: 'user', text: 'question 1', ts: ahead }, A), {
      now: T,
    });
    await applyFrame(db, frame('message.start', { message_id: 'y1', role: 'assistant' }, A), { now: T + 100 });
    await applyFrame(db, frame('message.update', { message_id: 'y1', text: 'ans' }, A), { now: T + 2_100 });
    expect(await texts()).toEqual(['question 1', 'ans']);
    expect((await db.messages.get('y1'))?.thought_ms).toBe(2_000);
    await applyFrame(db, frame('message.stop', { message_id: 'y1', final_text: 'answer 1', ts: ahead + 2_500 }, A), {
      now: T + 2_500,
    });
    expect(await texts()).toEqual(['question 1', 'answer 1']);
    expect(await db.messages.get('y1')).toMatchObject({ ts: ahead + 2_500, thought_ms: 2_000 });
    expect(await db.messages.get('y1')).not.toHaveProperty('started_at');
  });

  it('a message sent offline goes under the last reply, whose time the gateway stamped later than now', async () => {
    const ahead = T + 10_000;
    await applyFrame(db, frame('message', { message_id: 'y1', role: 'assistant', text: 'answer 1', ts: ahead }, A), {
      now: T,
    });
    await queueSend(db, { client_id: 'c2', lane: 'A', chat_id: 'A', text: 'question 2', now: T + 3_000 });
    expect(await texts()).toEqual(['answer 1', 'question 2']);
    // Its echo carries the gateway's time, later again.
    await applyFrame(
      db,
      frame('message', { message_id: 'z2', role: 'user', text: 'question 2', client_id: 'c2', ts: ahead + 3_000 }, A),
    );
    expect(await texts()).toEqual(['answer 1', 'question 2']);
    expect((await db.messages.get('z2'))?.ts).toBe(ahead + 3_000);
  });
});

describe('a gateway that gives no ts: history pages go where the gateway has them', () => {
  const entry = (n: number) => ({ message_id: `m${100 - n}`, role: 'assistant', text: `line ${n}` });
  const page = (ns: number[], extra: Record<string, unknown> = {}) =>
    frame('history', { messages: ns.map(entry), has_more: true, ...extra }, A);

  it('an older page goes above the messages it was asked before, in its order', async () => {
    await applyFrame(db, page([4, 5, 6]), { now: T });
    await applyFrame(db, page([1, 2, 3], { before_message_id: 'm96' }), { now: T + 60_000 });
    expect(await texts()).toEqual(['line 1', 'line 2', 'line 3', 'line 4', 'line 5', 'line 6']);
  });

  it('the newest page, after a message that came live, goes above that one', async () => {
    await applyFrame(db, frame('message', entry(6), A), { now: T });
    await applyFrame(db, page([3, 4, 5, 6]), { now: T + 60_000 });
    expect(await texts()).toEqual(['line 3', 'line 4', 'line 5', 'line 6']);
    expect((await laneMessages(db, 'A')).at(-1)?.ts).toBe(T);
  });
});

describe('sortTs', () => {
  it("keeps the gateway's time but for an exact tie", () => {
    expect(sortTs(T, T + 300, undefined, 0)).toBe(T); // the app's own time for it
    expect(sortTs(T, T + 300, T + ORDER_STEP, 0)).toBe(T + 2 * ORDER_STEP); // a step past the one before
    expect(sortTs(T, undefined, T + 200, 0)).toBe(T); // the one before is later, not the same instant
    // A millisecond ts on a whole second is no coarser than another: a later arrival is not kept.
    expect(sortTs(T, T + 40, T - 5, 0)).toBe(T);
    expect(sortTs(T + 5, T + 6, undefined, 0)).toBe(T + 5); // milliseconds: exact
    expect(sortTs(undefined, undefined, T - 1, T)).toBe(T); // no ts: its arrival
  });
});

describe('arrivalTs', () => {
  it('steps past the newest of the same instant or later (a gateway clock ahead)', () => {
    expect(arrivalTs(T, T)).toBe(T + ORDER_STEP);
    expect(arrivalTs(T + 400, T)).toBe(T + 400 + ORDER_STEP);
    expect(arrivalTs(T + 2500, T)).toBe(T + 2500 + ORDER_STEP);
    expect(arrivalTs(T - 10, T)).toBe(T);
  });
});
