// The frame pipeline over the real store: the live cursor never passes a frame that failed to store.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServerFrame } from '../protocol';
import type { IrisDB } from '../store/db';
import { getCursor } from '../store/models/sync';
import { applyFrame, applyFrames } from '../store/reducer';
import { freshDb, frame } from '../testing/db';
import { FramePipeline } from './framePipeline';

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
});
