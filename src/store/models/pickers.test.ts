import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { PickerRow } from '../schema';
import { freshDb } from '../../testing/db';
import {
  answerPicker,
  closePicker,
  closePickers,
  getPicker,
  openPickers,
  reopenPicker,
  settledPickerPlaces,
} from './pickers';

const picker = (picker_id: string, lane: string, ts: number): PickerRow => ({
  picker_id,
  lane,
  ts,
  type: 'picker.confirm',
  payload: { picker_id, title: 'Sure?' },
  state: 'open',
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

  it('places each answered or closed picker after the messages that came before it was asked, with its time, and no open one', async () => {
    const db = freshDb();
    const msg = (id: string, ts: number) =>
      db.messages.put({ message_id: id, lane: 'A', chat_id: 'A', role: 'user', text: id, ts, status: 'sent' });
    await msg('m1', 10);
    await msg('m2', 20);
    await msg('m3', 30);
    await db.pickers.bulkPut([
      { ...picker('late', 'A', 35), state: 'answered', answer: 'yes' },
      { ...picker('early', 'A', 15), state: 'answered', answer: 'no' },
      { ...picker('open', 'A', 25) },
      { ...picker('closed', 'A', 26), state: 'closed' },
      { ...picker('other', 'B', 1), state: 'answered', answer: 'yes' },
    ]);
    expect(await settledPickerPlaces(db, 'A')).toEqual([
      { picker_id: 'early', ts: 15, after: 1 },
      { picker_id: 'closed', ts: 26, after: 2 },
      { picker_id: 'late', ts: 35, after: 3 },
    ]);
    db.close();
  });

  it('reopens an answer that never arrived, and closes one gone at the gateway', async () => {
    const db = freshDb();
    await db.pickers.bulkPut([picker('p1', 'A', 1), picker('p2', 'A', 2)]);
    await answerPicker(db, 'p1', 'yes');
    await reopenPicker(db, 'p1');
    expect(await getPicker(db, 'p1')).toMatchObject({ state: 'open' });
    expect((await getPicker(db, 'p1'))?.answer).toBeUndefined();
    expect(await answerPicker(db, 'p1', 'no')).toBe(true);
    await closePicker(db, 'p2');
    expect((await openPickers(db, 'A')).map((p) => p.picker_id)).toEqual([]);
    expect((await getPicker(db, 'p2'))?.state).toBe('closed');
    db.close();
  });
});
