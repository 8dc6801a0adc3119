// The frame pipeline over the real store: the live cursor never passes a frame that failed to store, and
// the screen's live queries show a long replay as it is stored.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ServerFrame } from '../protocol';
import type { IrisDB } from '../store/db';
import { live } from '../store/live';
import { getCursor } from '../store/models/sync';
import { applyFrame, applyFrames } from '../store/reducer';
import { freshDb, frame } from '../testing/db';
import { until } from '../testing/until';
import { FramePipeline, REPLAY_CHUNK } from './framePipeline';

// The app runs Solid's browser build (reactive); Node would resolve the server build.
vi.mock('solid-js', async () => {
  // @ts-expect-error the browser build has no .d.ts of its own; its types are solid-js's.
  return await import('solid-js/dist/solid.js');
});
const { createRoot } = await import('solid-js');

let db: IrisDB;
beforeEach(() => {
  db = freshDb();
});
afterEach(() => db.close());

const A = { chat_id: 'A' };

describe('the frame pipeline with the store', () => {
  it('the stored cursor never passes a frame that failed to store (live cursor, spec README §16)', async () => {
    const gw = 'ws://gw';
    const put = db.messages.put.bind(db.messages);
    const bulkPut = db.messages.bulkPut.bind(db.messages);
    for (const failAt of [1, 3, 6]) {
      for (const pattern of ['one by one', 'in a burst']) {
        await db.messages.clear();
        await db.sync.clear();
        let full = true;
        // A full disk for one frame's row, thrown inside the reducer's transaction as the browser does.
        db.messages.put = ((row: { message_id: string }, ...rest: unknown[]) =>
          full && row.message_id === `m${failAt}`
            ? Promise.reject(new DOMException('full', 'QuotaExceededError'))
            : put(row as never, ...(rest as []))) as unknown as typeof put;
        // A batch writes its rows with one bulkPut at its end (store/reduce/batch.ts): full the same way.
        db.messages.bulkPut = ((rows: { message_id: string }[], ...rest: unknown[]) =>
          full && rows.some((r) => r.message_id === `m${failAt}`)
            ? Promise.reject(new DOMException('full', 'QuotaExceededError'))
            : bulkPut(rows as never, ...(rest as []))) as unknown as typeof bulkPut;
        const pipeline = new FramePipeline({
          apply: (f, cursor) => applyFrame(db, f, cursor === undefined ? { gateway: gw } : { gateway: gw, cursor }),
          applyBatch: (fs, cursor) =>
            applyFrames(db, fs, cursor === undefined ? { gateway: gw } : { gateway: gw, cursor }),
          schedule: (run) => run(),
          onError: () => {},
        });
        const live = (c: number) =>
          ({
            ...frame('message', { message_id: `m${c}`, role: 'assistant', text: `t${c}`, ts: c }, A),
            cursor: c,
          }) as ServerFrame;
        const pushes: Promise<void>[] = [];
        for (let c = 1; c <= 8; c++) {
          const p = pipeline.push(live(c)).catch(() => {});
          if (pattern === 'one by one') await p;
          else pushes.push(p);
        }
        await Promise.all(pushes);
        await pipeline.flush();
        const stored = await getCursor(db, gw);
        expect(stored, `${pattern}, m${failAt} failing`).toBe(failAt - 1);
        // Every frame after it was still applied (nothing is skipped), except the one that failed.
        expect((await db.messages.toArray()).map((m) => m.message_id).sort()).toEqual(
          [1, 2, 3, 4, 5, 6, 7, 8]
            .filter((c) => c !== failAt)
            .map((c) => `m${c}`)
            .sort(),
        );
        // The sync from the stored cursor brings it again; with room, it lands with sync.done's cursor.
        full = false;
        pipeline.beginBatch();
        for (let c = stored + 1; c <= 8; c++) void pipeline.push(live(c));
        await pipeline.endBatch(8);
        expect(await db.messages.count()).toBe(8);
        expect(await getCursor(db, gw)).toBe(8);
      }
    }
    db.messages.put = put;
    db.messages.bulkPut = bulkPut;
  });

  it("shows a long replay's first chunk as soon as it is stored, while the rest is still to come", async () => {
    const gw = 'ws://gw';
    const pipeline = new FramePipeline({
      apply: (f) => applyFrame(db, f, { gateway: gw }),
      applyBatch: (fs, cursor, replay) =>
        applyFrames(db, fs, cursor === undefined ? { gateway: gw, replay } : { gateway: gw, cursor, replay }),
      schedule: (run) => run(),
      onError: () => {},
    });
    // What the lane would show: here, how many messages it has read.
    const shown = createRoot(() => live(() => db.messages.count(), -1));
    await until(() => shown() === 0, 'the first read');
    pipeline.beginBatch();
    const total = REPLAY_CHUNK + 10;
    for (let c = 1; c <= total; c++)
      void pipeline.push({
        ...frame('message', { message_id: `m${c}`, role: 'assistant', text: `t${c}`, ts: c }, A),
        cursor: c,
      } as ServerFrame);
    // The rest of the replay has not come (no sync.done): the first chunk shows anyway, long before the
    // hold's lease (5 s) would end by itself.
    await until(() => shown() === REPLAY_CHUNK, 'the first chunk on screen', 3_000);
    await pipeline.endBatch(total);
    await until(() => shown() === total, 'the whole replay on screen');
  });
});
