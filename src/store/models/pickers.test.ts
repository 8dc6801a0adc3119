import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { PickerRow } from '../schema';
import { freshDb } from '../test-support';
import { answerPicker, closePickers, getPicker, openPickers } from './pickers';

const picker = (picker_id: string, lane: string, ts: number): PickerRow => ({
  picker_id, lane, ts, type: 'picker.confirm', payload: { picker_id, title: 'Sure?' }, state: 'open',
});

describe('pickers model', () => {
  it('lists open pickers of a lane, answers once, closes the rest', async () => {
    const db = freshDb();
    await db.pickers.bulkPut([picker('p2', 'A', 2), picker('p1', 'A', 1), picker('p3', 'B', 3)]);
    expect((await openPickers(db, 'A')).map((p) => p.picker_id)).toEqual(['p1', 'p2']);
    expect(await answerPicker(db, 'p1', 'yes')).toBe(true);
    expect(await answerPicker(db, 'p1', 'no')).toBe(false);
    expect(await getPicker(db, 'p1')).toMatchObject({ state: 'answered', answer: 'yes' });
    expect(await closePickers(db, 'A')).toBe(1);
    expect(await openPickers(db, 'A')).toEqual([]);
    expect((await getPicker(db, 'p1'))?.state).toBe('answered');
    expect((await openPickers(db, 'B')).length).toBe(1);
    db.close();
  });
});
