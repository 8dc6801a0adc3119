import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { applyFrame } from '../reducer';
import { freshDb, frame } from '../../testing/db';
import { activityOfTurns, openTurnActivity, orphanTurn, turnActivity } from './activity';

describe('activity model', () => {
  it('lists a turn in arrival order, and the open turn of a lane', async () => {
    const db = freshDb();
    const A = { chat_id: 'A' };
    await applyFrame(db, frame('tool.start', { index: 1, name: 'b' }, A), { now: 5 });
    await applyFrame(db, frame('commentary', { message_id: 'k', text: 'hm' }, A), { now: 5 });
    await applyFrame(db, frame('tool.start', { index: 0, name: 'a' }, A), { now: 5 });
    expect((await openTurnActivity(db, 'A')).map((r) => r.id)).toEqual([
      'A#1:tool:1',
      expect.stringMatching(/^A#1:commentary:k:/),
      'A#1:tool:0',
    ]);
    // Several beats under the reply's one message_id are each kept, once.
    await applyFrame(db, frame('commentary', { message_id: 'k', text: 'second thought' }, A), { now: 6 });
    await applyFrame(db, frame('commentary', { message_id: 'k', text: 'second thought' }, A), { now: 7 });
    expect((await openTurnActivity(db, 'A')).filter((r) => r.kind === 'commentary').map((r) => r.text)).toEqual([
      'hm',
      'second thought',
    ]);
    await applyFrame(db, frame('agent.idle', {}, A));
    expect(await openTurnActivity(db, 'A')).toEqual([]);
    expect((await turnActivity(db, 'A#1')).length).toBe(4);
    db.close();
  });

  it('gathers several turns at once, and names the open turn only while it has cards but no message', async () => {
    const db = freshDb();
    const card = (id: string, turn: string) =>
      db.activity.put({ id, lane: 'A', turn, kind: 'tool', ts: 1, order: 0, index: 0, name: 'search' });
    expect(await orphanTurn(db, 'A')).toBeUndefined();
    await db.lanes.put({ lane: 'A', readTs: 0, busy: true, typing: false, turnSeq: 2, turn: 'A#2' });
    expect(await orphanTurn(db, 'A')).toBeUndefined();
    await card('A#1:tool:0', 'A#1');
    await card('A#2:tool:0', 'A#2');
    expect(await orphanTurn(db, 'A')).toBe('A#2');
    await db.messages.put({
      message_id: 'r2',
      lane: 'A',
      chat_id: 'A',
      role: 'assistant',
      text: '',
      ts: 3,
      status: 'streaming',
      turn: 'A#2',
    });
    expect(await orphanTurn(db, 'A')).toBeUndefined();
    expect((await activityOfTurns(db, ['A#2', 'A#1', 'nope'])).map((r) => r.id).sort()).toEqual([
      'A#1:tool:0',
      'A#2:tool:0',
    ]);
    expect(await activityOfTurns(db, [])).toEqual([]);
    db.close();
  });
});
