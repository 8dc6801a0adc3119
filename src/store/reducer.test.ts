import 'fake-indexeddb/auto';
import { liveQuery } from 'dexie';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IrisDB } from './db';
import { orphanTurn } from './models/activity';
import { getLane } from './models/lanes';
import { laneMessageIds, laneMessages, markStopping, unmarkStopping, unreadCount } from './models/messages';
import { queueSend } from './models/outbox';
import { answerPicker } from './models/pickers';
import { getSetting } from './models/settings';
import { getCursor } from './models/sync';
import { visibleToasts } from './models/toasts';
import { applyFrame, applyFrames, READS_MESSAGES } from './reducer';
import { dump, freshDb, frame } from '../testing/db';
import { until } from '../testing/until';

let db: IrisDB;
beforeEach(() => {
  db = freshDb();
});
afterEach(() => db.close());

const A = { chat_id: 'A' };
const apply = (type: string, payload: unknown, envelope: Record<string, unknown> = A, now = 1000) =>
  applyFrame(db, frame(type, payload, envelope), { now });

describe('directory', () => {
  it('hello.ack and channel.list replace the directory in the gateway order, dropping bad entries', async () => {
    await apply(
      'hello.ack',
      {
        server_caps: { streaming: true, push: 'webpush', evil: 'x' },
        sync_cursor: 3,
        channels: [{ chat_id: 'old', name: 'Old', kind: 'channel' }],
      },
      {},
    );
    await apply(
      'hello.ack',
      {
        channels: [
          { chat_id: 'z', name: 'Zed', kind: 'default', is_default: true },
          { chat_id: 'a', name: 'Alpha' },
          'nonsense',
          { name: 'no id' },
          { chat_id: 'a', name: 'duplicate' },
          { chat_id: 't', name: 'Thread', kind: 'thread', parent_chat_id: 'a', favorite: true },
        ],
      },
      {},
    );
    const rows = await db.channels.orderBy('order').toArray();
    expect(rows.map((r) => [r.chat_id, r.name, r.kind, r.order])).toEqual([
      ['z', 'Zed', 'default', 0],
      ['a', 'Alpha', 'channel', 1],
      ['t', 'Thread', 'thread', 2],
    ]);
    expect(await getSetting(db, 'serverCaps')).toEqual({ streaming: true, push: 'webpush' });

    await apply('channel.list', { channels: [{ chat_id: 'b', name: 'Beta', kind: 'channel' }] }, {});
    expect((await db.channels.toArray()).map((r) => r.chat_id)).toEqual(['b']);

    await apply('channel.list', { channels: 'not a list' }, {});
    expect((await db.channels.toArray()).map((r) => r.chat_id)).toEqual(['b']);
  });

  it("hello.ack's empty list (protocol.py's default when not given one) keeps the directory; channel.list's empties it", async () => {
    await apply('hello.ack', { server_caps: {}, sync_cursor: 0, channels: [] }, {});
    // Not a listing: the directory is not known to be empty.
    expect(await getSetting(db, 'directoryListed')).toBeUndefined();
    await apply('channel.list', { channels: [{ chat_id: 'b', name: 'Beta', kind: 'default' }] }, {});
    expect(await getSetting(db, 'directoryListed')).toBe(true);
    await apply('hello.ack', { server_caps: { search: true }, sync_cursor: 0, channels: [] }, {});
    expect((await db.channels.toArray()).map((r) => r.chat_id)).toEqual(['b']);
    expect(await getSetting(db, 'serverCaps')).toEqual({ search: true });
    await apply('channel.list', { channels: [] }, {});
    expect(await db.channels.count()).toBe(0);
    expect(await getSetting(db, 'directoryListed')).toBe(true);
  });

  it('channel.created appends; an auto thread is offered to its channel once', async () => {
    await apply('channel.list', { channels: [{ chat_id: 'a', name: 'A', kind: 'default', is_default: true }] }, {});
    const created = frame('channel.created', {
      chat_id: 't1',
      name: 'Quick question',
      kind: 'thread',
      parent_chat_id: 'a',
      auto: true,
    });
    await applyFrame(db, created);
    expect((await db.channels.get('t1'))?.order).toBe(1);
    expect((await getLane(db, 'a')).autoThread).toBe('t1');

    await db.lanes.update('a', { autoThread: undefined });
    await applyFrame(db, created);
    expect((await getLane(db, 'a')).autoThread).toBeUndefined();
    expect(await db.channels.count()).toBe(2);
  });

  it('channel.renamed takes a whole entry (absent flags are false) or renames a known entry', async () => {
    await apply(
      'channel.list',
      {
        channels: [
          { chat_id: 'a', name: 'A', kind: 'channel', favorite: true, icon: 'star' },
          { chat_id: 'b', name: 'B' },
        ],
      },
      {},
    );
    await apply('channel.renamed', { chat_id: 'a', name: 'Renamed', kind: 'channel', color: '#f00' }, {});
    expect(await db.channels.get('a')).toEqual({
      chat_id: 'a',
      name: 'Renamed',
      kind: 'channel',
      color: '#f00',
      order: 0,
    });

    await apply('channel.renamed', { chat_id: 'b', name: 'Bee' }, {});
    expect((await db.channels.get('b'))?.name).toBe('Bee');
    expect((await db.channels.get('b'))?.order).toBe(1);

    await apply('channel.renamed', { chat_id: 'unknown', name: 'Ghost' }, {});
    expect(await db.channels.get('unknown')).toBeUndefined();
  });

  it('channel.deleted archives the entry and keeps it', async () => {
    await apply('channel.list', { channels: [{ chat_id: 'a', name: 'A' }] }, {});
    await apply('channel.deleted', { chat_id: 'a' }, {});
    await apply('channel.deleted', { chat_id: 'nope' }, {});
    expect(await db.channels.toArray()).toEqual([
      { chat_id: 'a', name: 'A', kind: 'channel', archived: true, order: 0 },
    ]);
  });
});

describe('messages', () => {
  it('stores a final assistant message in its lane, resolving a thread addressed by its own chat_id', async () => {
    await apply(
      'channel.list',
      {
        channels: [
          { chat_id: 'a', name: 'A' },
          { chat_id: 't', name: 'T', kind: 'thread', parent_chat_id: 'a' },
        ],
      },
      {},
    );
    await apply(
      'message',
      { message_id: 'm1', role: 'assistant', text: 'hello', reasoning: 'think', model: 'x', tokens: 5, ts: 50 },
      { chat_id: 't' },
    );
    await apply('message', { message_id: 'm2', role: 'cron', text: 'tick', ts: 60 }, { chat_id: 'a', thread_id: 't' });
    expect(await db.messages.get('m1')).toEqual({
      message_id: 'm1',
      lane: 't',
      chat_id: 'a',
      thread_id: 't',
      role: 'assistant',
      text: 'hello',
      reasoning: 'think',
      model: 'x',
      tokens: 5,
      ts: 50,
      status: 'final',
    });
    expect((await db.messages.get('m2'))?.status).toBe('final');
    expect((await laneMessages(db, 't')).map((m) => m.message_id)).toEqual(['m1', 'm2']);
  });

  it('the echo of a send replaces the pending bubble and its outbox row, once', async () => {
    await queueSend(db, { client_id: 'c1', lane: 'A', chat_id: 'A', text: 'hi', now: 900 });
    expect((await db.messages.get('local:c1'))?.status).toBe('pending');
    const echo = frame('message', { message_id: 's1', role: 'user', text: 'hi', ts: 950, client_id: 'c1' }, A);
    await applyFrame(db, echo);
    expect(await db.messages.get('local:c1')).toBeUndefined();
    expect(await db.outbox.count()).toBe(0);
    const row = await db.messages.get('s1');
    expect(row).toMatchObject({ status: 'sent', client_id: 'c1', ts: 950, lane: 'A', sent_here: true });

    await apply('read.receipt', { message_id: 's1' });
    await applyFrame(db, echo);
    expect(await db.messages.get('s1')).toMatchObject({ status: 'read', sent_here: true });
    expect(await db.messages.count()).toBe(1);
  });

  it("another device's message is not marked as sent here, nor is this device's once it has no pending bubble", async () => {
    await apply('message', { message_id: 's3', role: 'user', text: 'from my phone', ts: 5, client_id: 'other' });
    expect((await db.messages.get('s3'))?.sent_here).toBeUndefined();
    // A history page with this device's own message keeps the mark; one with another's adds none.
    await queueSend(db, { client_id: 'c4', lane: 'A', chat_id: 'A', text: 'mine', now: 6 });
    await apply('message', { message_id: 's4', role: 'user', text: 'mine', ts: 7, client_id: 'c4' });
    await apply('history', {
      messages: [
        { message_id: 's3', role: 'user', text: 'from my phone', ts: 5, client_id: 'other' },
        { message_id: 's4', role: 'user', text: 'mine, as kept', ts: 7, client_id: 'c4' },
      ],
    });
    expect((await db.messages.get('s3'))?.sent_here).toBeUndefined();
    expect(await db.messages.get('s4')).toMatchObject({ text: 'mine, as kept', sent_here: true });
  });

  it('matches an echo without client_id through ctx.clientId (request id matched by the caller)', async () => {
    await queueSend(db, { client_id: 'c2', lane: 'A', chat_id: 'A', text: 'yo', reply_to: 'm0', now: 900 });
    await applyFrame(db, frame('message', { message_id: 's2', role: 'user', text: 'yo' }, A), {
      clientId: 'c2',
      now: 1000,
    });
    expect(await db.messages.toArray()).toEqual([
      {
        message_id: 's2',
        lane: 'A',
        chat_id: 'A',
        role: 'user',
        text: 'yo',
        ts: 900,
        status: 'sent',
        client_id: 'c2',
        reply_to: 'm0',
        sent_here: true,
      },
    ]);
    expect(await db.outbox.count()).toBe(0);
  });

  it('a second gateway message claiming the same client_id keeps both messages, the client_id once (latest claim)', async () => {
    await apply('message', { message_id: 's1', role: 'user', text: 'a', ts: 1, client_id: 'c' });
    await apply('message', { message_id: 's2', role: 'user', text: 'b', ts: 2, client_id: 'c' });
    const rows = await db.messages.toArray();
    expect(rows.map((r) => [r.message_id, r.client_id])).toEqual([
      ['s1', undefined],
      ['s2', 'c'],
    ]);
  });

  it('a history page that moves a client_id between messages gives the same DB when applied twice', async () => {
    await apply('history', { messages: [{ message_id: 'm1', role: 'user', client_id: 'c1' }] });
    const page = {
      messages: [
        { message_id: 'm2', role: 'user', client_id: 'c1' },
        { message_id: 'm1', role: 'user', client_id: 'c3' },
      ],
    };
    await apply('history', page);
    const once = await db.messages.toArray();
    await apply('history', page);
    expect(await db.messages.toArray()).toEqual(once);
    expect(once.map((r) => [r.message_id, r.client_id])).toEqual([
      ['m1', 'c3'],
      ['m2', 'c1'],
    ]);
  });

  it('streams: start opens a bubble in the turn, updates replace the text, stop makes it final', async () => {
    await apply('agent.busy', { reason: 'processing' });
    await apply('message.start', { message_id: 'm1', role: 'assistant' }, A, 1111);
    expect(await db.messages.get('m1')).toMatchObject({ status: 'streaming', text: '', ts: 1111, turn: 'A#1' });
    await apply('message.update', { message_id: 'm1', text: 'Hel' }, A, 3111);
    await apply('message.update', { message_id: 'm1', text: 'Hello wor' }, A, 4111);
    expect((await db.messages.get('m1'))?.text).toBe('Hello wor');
    // How long the agent thought: from the start to the first text (shown as "Thought for 2 s").
    expect((await db.messages.get('m1'))?.thought_ms).toBe(2000);
    await apply('message.stop', {
      message_id: 'm1',
      final_text: 'Hello world',
      reasoning: 'r',
      model: 'gpt',
      tokens: 12,
      ts: 2222,
    });
    expect(await db.messages.get('m1')).toMatchObject({
      status: 'final',
      text: 'Hello world',
      reasoning: 'r',
      model: 'gpt',
      tokens: 12,
      ts: 2222,
      turn: 'A#1',
      thought_ms: 2000,
    });
    // Late or replayed frames never reopen or overwrite the final bubble.
    await apply('message.update', { message_id: 'm1', text: 'Hello wor' });
    await apply('message.start', { message_id: 'm1', role: 'assistant' });
    expect(await db.messages.get('m1')).toMatchObject({ status: 'final', text: 'Hello world' });
  });

  it('a stop that brings the first text ends the thinking too (its updates were superseded or never sent)', async () => {
    await apply('message.start', { message_id: 'm1', role: 'assistant' }, A, 1111);
    await apply('message.update', { message_id: 'm1', text: '', reasoning: 'Reading' }, A, 2111);
    await apply('message.stop', { message_id: 'm1', final_text: 'Done', ts: 5000 }, A, 4111);
    expect(await db.messages.get('m1')).toMatchObject({ status: 'final', text: 'Done', thought_ms: 3000 });
  });

  it('a reply the person stopped (marked before the request) stays stopped through its stop and a history page', async () => {
    await apply('message.start', { message_id: 'm1', role: 'assistant' });
    await apply('message.start', { message_id: 'b1', role: 'assistant' }, { chat_id: 'B' });
    await apply('message.update', { message_id: 'm1', text: 'Line 1' });
    expect(await markStopping(db, 'A')).toEqual(['m1']); // only this lane's streaming reply
    await apply('message.update', { message_id: 'm1', text: 'Line 1\nLine 2' });
    await apply('message.stop', { message_id: 'm1', final_text: 'Line 1\nLine 2' });
    expect(await db.messages.get('m1')).toMatchObject({ status: 'final', stopped: true });
    await apply('history', { messages: [{ message_id: 'm1', role: 'assistant', text: 'Line 1\nLine 2', ts: 9 }] });
    expect(await db.messages.get('m1')).toMatchObject({ stopped: true, ts: 9 });
    expect((await db.messages.get('b1'))?.stopped).toBeUndefined();
    // A stop the gateway did not take leaves the reply as it was.
    await apply('message.start', { message_id: 'm2', role: 'assistant' });
    await unmarkStopping(db, await markStopping(db, 'A'));
    expect(await db.messages.get('m2')).not.toHaveProperty('stopped');
  });

  it('a reply another device stopped is stopped here too, by its stop, a message or a history page (the extension)', async () => {
    await apply('message.start', { message_id: 'm1', role: 'assistant' });
    await apply('message.stop', { message_id: 'm1', final_text: 'Line 1', stopped: true });
    expect(await db.messages.get('m1')).toMatchObject({ status: 'final', stopped: true });
    // A device that missed the stream: the stored reply says it (a `message`, a history page).
    await apply('message', { message_id: 'm2', role: 'assistant', text: 'Half', stopped: true });
    await apply('history', { messages: [{ message_id: 'm3', role: 'assistant', text: 'Cut', ts: 9, stopped: true }] });
    expect((await db.messages.get('m2'))?.stopped).toBe(true);
    expect((await db.messages.get('m3'))?.stopped).toBe(true);
    // Only `true` says so: a reply that ran to its end, or a hostile value, is not marked.
    await apply('message.stop', { message_id: 'm4', final_text: 'All', stopped: 'yes' });
    await apply('message', { message_id: 'm5', role: 'assistant', text: 'All', stopped: 1 });
    expect(await db.messages.get('m4')).not.toHaveProperty('stopped');
    expect(await db.messages.get('m5')).not.toHaveProperty('stopped');
  });

  it("a streamed update wakes live queries of the row, not those of the lane's ids or counts", async () => {
    await apply('message.start', { message_id: 'm1', role: 'assistant' }, A, 1111);
    const runs = { ids: 0, count: 0, row: 0 };
    const watch = (key: keyof typeof runs, query: () => Promise<unknown>) =>
      liveQuery(query).subscribe({ next: () => void runs[key]++ });
    const subs = [
      watch('ids', () => laneMessageIds(db, 'A')),
      watch('count', () => db.messages.where('turn').equals('A#1').count()),
      watch('row', () => db.messages.get('m1')),
    ];
    try {
      await until(() => runs.ids === 1 && runs.count === 1 && runs.row === 1);
      await apply('message.update', { message_id: 'm1', text: 'Hel' }, A, 3111);
      await until(() => runs.row === 2);
      await apply('message.update', { message_id: 'm1', text: 'Hello' }, A, 3211);
      await until(() => runs.row === 3);
      await apply('message.stop', { message_id: 'm1', final_text: 'Hello world' });
      // The stop changes the row's status (an index): everything re-reads once.
      await until(() => runs.row === 4 && runs.ids === 2 && runs.count === 2);
      expect(runs).toEqual({ ids: 2, count: 2, row: 4 });
    } finally {
      subs.forEach((s) => s.unsubscribe());
    }
  });

  it('message.start with no turn open opens one; a later message keeps the turn and replaces the text', async () => {
    await apply('message.start', { message_id: 'm1' });
    expect((await db.messages.get('m1'))?.turn).toBe('A#1');
    expect((await getLane(db, 'A')).turn).toBe('A#1');
    await apply('message', { message_id: 'm1', role: 'assistant', text: 'final', ts: 5 });
    expect(await db.messages.get('m1')).toMatchObject({ status: 'final', text: 'final', turn: 'A#1', ts: 5 });
    await apply('message', { message_id: 'm1', role: 'assistant', text: 'edited', ts: 5 });
    expect((await db.messages.get('m1'))?.text).toBe('edited');
  });

  it('without agent.busy or agent.idle (protocol.py has neither), a reply’s end closes its turn: the next reply’s tools are its own', async () => {
    const turnOf = async (id: string) => (await db.messages.get(id))?.turn;
    const tools = async (turn: string | undefined) =>
      (
        await db.activity
          .where('turn')
          .equals(turn ?? '-')
          .toArray()
      ).map((a) => a.name);
    await apply('message', { message_id: 'q1', role: 'user', text: 'count my words' });
    await apply('tool.start', { index: 0, name: 'word_count' });
    await apply('tool.end', { index: 0, name: 'word_count', ok: true });
    await apply('message.start', { message_id: 'r1' });
    await apply('message.stop', { message_id: 'r1', final_text: 'Three words.' });
    await apply('message', { message_id: 'q2', role: 'user', text: 'and now?' });
    await apply('message.start', { message_id: 'r2' });
    await apply('message.stop', { message_id: 'r2', final_text: 'Nothing to count.' });
    // Not streamed: a final message after a tool.
    await apply('tool.start', { index: 0, name: 'search' });
    await apply('message', { message_id: 'r3', role: 'assistant', text: 'Found it.' });
    await apply('message.start', { message_id: 'r4' });
    expect(await tools(await turnOf('r1'))).toEqual(['word_count']);
    expect(await tools(await turnOf('r2'))).toEqual([]);
    expect(await tools(await turnOf('r3'))).toEqual(['search']);
    expect(await tools(await turnOf('r4'))).toEqual([]);
    expect(new Set(await Promise.all(['r1', 'r2', 'r3', 'r4'].map(turnOf))).size).toBe(4);
    // With agent.busy the turn stays open past a reply's end, until agent.idle.
    await apply('message.stop', { message_id: 'r4', final_text: 'ok' });
    await apply('agent.busy', { reason: 'processing' });
    await apply('message.start', { message_id: 'r5' });
    await apply('message.stop', { message_id: 'r5', final_text: 'first part' });
    await apply('tool.start', { index: 0, name: 'later_tool' });
    expect(await tools(await turnOf('r5'))).toEqual(['later_tool']);
  });

  it('a replayed turn the app has (no live cursor: replayed since the last sync.done) lands on that reply, in either order, and leaves no turn at work', async () => {
    const replay = (type: string, payload: unknown) =>
      applyFrame(db, frame(type, payload, A), { now: 2000, replay: true });
    const names = async (turn: string | undefined) =>
      (
        await db.activity
          .where('turn')
          .equals(turn ?? '-')
          .toArray()
      )
        .map((a) => (a.kind === 'tool' ? `${a.name}:${a.state}` : `beat:${a.text}`))
        .sort();
    const turnOf = async (id: string) => (await db.messages.get(id))?.turn;
    // A reply whose tool and beat came after its start, then one whose tool came before it.
    const turns: [string, unknown][] = [
      ['message.start', { message_id: 'r1' }],
      ['tool.start', { index: 0, name: 'search' }],
      ['tool.end', { index: 0, name: 'search', ok: true }],
      ['commentary', { message_id: 'r1', text: 'Looking…' }],
      ['message.stop', { message_id: 'r1', final_text: 'Found.' }],
      ['tool.start', { index: 0, name: 'fetch' }],
      ['tool.end', { index: 0, name: 'fetch', ok: true }],
      ['message.start', { message_id: 'r2' }],
      ['message.stop', { message_id: 'r2', final_text: 'Fetched.' }],
    ];
    for (const [type, payload] of turns) await apply(type, payload);
    const before = await dump(db);
    // The reconnect's replay of both turns, as they went.
    for (const [type, payload] of turns) await replay(type, payload);
    // No turn left open (nothing shows at work), no card moved or doubled.
    expect((await getLane(db, 'A')).turn).toBeUndefined();
    expect(await orphanTurn(db, 'A')).toBeUndefined();
    expect(await names(await turnOf('r1'))).toEqual(['beat:Looking…', 'search:ok']);
    expect(await names(await turnOf('r2'))).toEqual(['fetch:ok']);
    const after = await dump(db);
    expect(after.messages).toEqual(before.messages);
    // The next reply's tools are its own.
    await apply('message.start', { message_id: 'r3' });
    await apply('tool.start', { index: 0, name: 'write' });
    expect(await names(await turnOf('r3'))).toEqual(['write:running']);
    expect(await names(await turnOf('r1'))).toEqual(['beat:Looking…', 'search:ok']);
  });

  it('a replayed start of a reply read from history (no turn yet) gives it a turn of its own for the tools that follow', async () => {
    await apply('history', { messages: [{ message_id: 'h1', role: 'assistant', text: 'Old answer.', ts: 500 }] });
    await applyFrame(db, frame('message.start', { message_id: 'h1' }, A), { now: 2000, replay: true });
    await applyFrame(db, frame('tool.start', { index: 0, name: 'search' }, A), { now: 2000, replay: true });
    await applyFrame(db, frame('message.stop', { message_id: 'h1', final_text: 'Old answer.' }, A), {
      now: 2000,
      replay: true,
    });
    const turn = (await db.messages.get('h1'))?.turn;
    expect(turn).toBe('history:h1');
    expect((await db.activity.where('turn').equals(turn!).toArray()).map((a) => a.name)).toEqual(['search']);
    expect((await getLane(db, 'A')).turn).toBeUndefined();
  });

  it('message.stop without a start still shows the final message', async () => {
    await apply('message.stop', { message_id: 'm9', final_text: 'done' }, A, 777);
    expect(await db.messages.get('m9')).toEqual({
      message_id: 'm9',
      lane: 'A',
      chat_id: 'A',
      role: 'assistant',
      text: 'done',
      ts: 777,
      status: 'final',
    });
    await apply('message.stop', { message_id: 'm10', final_text: 'lost' }, {});
    expect(await db.messages.get('m10')).toBeUndefined();
  });

  it('message.deleted removes the messages, their commentary, media and finished tool cards', async () => {
    await apply('agent.busy', {});
    await apply('tool.start', { index: 0, name: 'search' });
    await apply('commentary', { message_id: 'c1', text: 'looking' });
    await apply('message.start', { message_id: 'm1' });
    await apply('message.stop', { message_id: 'm1', final_text: 'x', ts: 10 });
    await apply('agent.idle', {});
    await apply('media.offer', {
      media_id: 'img',
      kind: 'image',
      mime: 'image/png',
      size: 3,
      filename: 'a.png',
      message_id: 'm1',
    });
    await db.mediaBlobs.put({ media_id: 'img', blob: new Blob(['abc']) });
    await apply('message', { message_id: 'm2', role: 'assistant', text: 'keep', ts: 20 });
    expect(await db.activity.count()).toBe(2);

    await apply('message.deleted', { message_ids: ['m1', 'c1', 42, 'unknown'] });
    expect((await db.messages.toArray()).map((m) => m.message_id)).toEqual(['m2']);
    expect(await db.activity.count()).toBe(0);
    expect(await db.media.count()).toBe(0);
    expect(await db.mediaBlobs.count()).toBe(0);
  });

  it('read.receipt marks a user bubble read and moves the lane read mark forward only', async () => {
    await apply('message', { message_id: 'a1', role: 'assistant', text: '1', ts: 10 });
    await apply('message', { message_id: 'u1', role: 'user', text: '2', ts: 20 });
    await apply('message', { message_id: 'a2', role: 'assistant', text: '3', ts: 30 });
    await apply('message', { message_id: 'a3', role: 'assistant', text: '4', ts: 40 });
    expect(await unreadCount(db, 'A')).toBe(3);

    await apply('read.receipt', { message_id: 'u1' });
    expect((await db.messages.get('u1'))?.status).toBe('read');
    expect(await unreadCount(db, 'A')).toBe(2);

    await apply('read.receipt', { message_id: 'a3' });
    expect(await unreadCount(db, 'A')).toBe(0);
    await apply('read.receipt', { message_id: 'a1' });
    expect(await getLane(db, 'A')).toMatchObject({ readTs: 40, readMessageId: 'a3' });
    expect((await db.messages.get('a1'))?.status).toBe('final');

    await apply('read.receipt', { message_id: 'nope' });
    expect(await getLane(db, 'A')).toMatchObject({ readTs: 40 });
  });
});

describe('agent turns', () => {
  it('busy opens a turn, typing shows, idle closes it and ends any stream', async () => {
    await apply('agent.busy', { reason: 'tool' });
    await apply('typing', { on: true });
    expect(await getLane(db, 'A')).toMatchObject({
      busy: true,
      busyReason: 'tool',
      typing: true,
      turn: 'A#1',
      turnSeq: 1,
    });
    await apply('agent.busy', { reason: 'processing' });
    expect((await getLane(db, 'A')).turn).toBe('A#1');
    await apply('message.start', { message_id: 'm1' });
    await apply('message.update', { message_id: 'm1', text: 'partial' });
    await apply('agent.idle', {});
    expect(await db.lanes.get('A')).toEqual({ lane: 'A', readTs: 0, busy: false, typing: false, turnSeq: 1 });
    expect(await db.messages.get('m1')).toMatchObject({ status: 'final', text: 'partial' });
    expect(await db.messages.get('m1')).not.toHaveProperty('started_at');

    await apply('agent.busy', {});
    expect((await getLane(db, 'A')).turn).toBe('A#2');
    await apply('typing', { on: 'yes' });
    expect((await getLane(db, 'A')).typing).toBe(false);
  });

  it('tool frames build cards in the open turn; replays do not repeat notes', async () => {
    await apply('tool.start', { index: 0, name: 'shell', preview: 'ls', args: { cmd: 'ls' } }, A, 100);
    const progress = frame('tool.progress', { index: 0, name: 'shell', note: 'listing' }, A);
    await applyFrame(db, progress);
    await applyFrame(db, progress);
    await apply('tool.progress', { index: 0, name: 'shell', note: 'done listing' });
    await apply('tool.end', { index: 0, name: 'shell', ok: false, duration: 1.5, output_preview: 'err' });
    await apply('commentary', { message_id: 'k1', text: 'Trying again' });
    await apply('tool.start', { index: 1, name: 'shell' }, A, 200);
    await apply('tool.end', { index: 1, name: 'shell', ok: true });

    const rows = await db.activity.where('turn').equals('A#1').sortBy('order');
    expect(rows).toEqual([
      {
        id: 'A#1:tool:0',
        lane: 'A',
        turn: 'A#1',
        kind: 'tool',
        ts: 100,
        order: 0,
        index: 0,
        name: 'shell',
        notes: ['listing', 'done listing'],
        state: 'failed',
        preview: 'ls',
        args: { cmd: 'ls' },
        duration: 1.5,
        output: 'err',
      },
      {
        id: expect.stringMatching(/^A#1:commentary:k1:/),
        lane: 'A',
        turn: 'A#1',
        kind: 'commentary',
        ts: 1000,
        order: 1,
        message_id: 'k1',
        text: 'Trying again',
      },
      {
        id: 'A#1:tool:1',
        lane: 'A',
        turn: 'A#1',
        kind: 'tool',
        ts: 200,
        order: 2,
        index: 1,
        name: 'shell',
        notes: [],
        state: 'ok',
      },
    ]);
    await apply('tool.start', { index: -1, name: 'x' });
    await apply('tool.start', { index: 1.5, name: 'x' });
    await apply('tool.end', { name: 'x', ok: true });
    expect(await db.activity.count()).toBe(3);
  });
});

describe('pickers', () => {
  const approval = { picker_id: 'p1', command: 'rm -rf /tmp/x', description: 'cleanup', extra: '<script>' };

  it('opens a picker with a cleaned payload; busy(waiting_input) keeps it, busy(processing) closes it', async () => {
    await apply('picker.approval', approval);
    expect(await db.pickers.get('p1')).toEqual({
      picker_id: 'p1',
      lane: 'A',
      type: 'picker.approval',
      state: 'open',
      ts: 1000,
      payload: { picker_id: 'p1', command: 'rm -rf /tmp/x', description: 'cleanup' },
    });
    await apply('agent.busy', { reason: 'waiting_input' });
    expect((await db.pickers.get('p1'))?.state).toBe('open');
    await apply('agent.busy', { reason: 'processing' });
    expect((await db.pickers.get('p1'))?.state).toBe('closed');
    await apply('picker.approval', approval);
    expect((await db.pickers.get('p1'))?.state).toBe('closed');
  });

  it('an answered picker stays answered; idle closes open ones; a lane-less picker goes to the default channel', async () => {
    await apply(
      'channel.list',
      { channels: [{ chat_id: 'home', name: 'Home', kind: 'default', is_default: true }] },
      {},
    );
    await apply('picker.choice', {
      picker_id: 'p2',
      title: 'Pick',
      choices: [{ value: 'a', label: 'A' }, { label: 'no value' }, 3],
    });
    await apply('picker.confirm', { picker_id: 'p3', title: 'Sure?' });
    await apply('picker.model', { picker_id: 'p4', providers: [{ id: 'openai', models: [{ id: 'gpt' }, {}] }] }, {});
    expect((await db.pickers.get('p2'))?.payload).toEqual({
      picker_id: 'p2',
      title: 'Pick',
      choices: [{ value: 'a', label: 'A' }],
    });
    expect(await db.pickers.get('p4')).toMatchObject({
      lane: 'home',
      payload: {
        picker_id: 'p4',
        providers: [{ id: 'openai', label: 'openai', models: [{ id: 'gpt', label: 'gpt' }] }],
      },
    });
    expect(await answerPicker(db, 'p2', 'a')).toBe(true);
    expect(await answerPicker(db, 'p2', 'a')).toBe(false);
    await apply('picker.choice', { picker_id: 'p2', title: 'Pick', choices: [] });
    expect(await db.pickers.get('p2')).toMatchObject({ state: 'answered', answer: 'a' });
    await apply('agent.idle', {});
    expect((await db.pickers.get('p3'))?.state).toBe('closed');
    expect((await db.pickers.get('p2'))?.state).toBe('answered');
  });

  it('a picker answered on another device takes the answer its agent.busy names (the extension), else closes', async () => {
    for (const id of ['q1', 'q2', 'q3', 'q4']) await apply('picker.confirm', { picker_id: id, title: 'Sure?' });
    await apply('picker.confirm', { picker_id: 'qB', title: 'Sure?' }, { chat_id: 'B' });
    expect(await answerPicker(db, 'q2', 'no')).toBe(true); // answered here
    await apply('agent.busy', { reason: 'processing', answered: { picker_id: 'q1', value: 'yes' } });
    expect(await db.pickers.get('q1')).toMatchObject({ state: 'answered', answer: 'yes' });
    expect(await db.pickers.get('q3')).toMatchObject({ state: 'closed' }); // the others close as before
    // An answer given here is this device's; a question closed before its answer came takes it; another
    // lane's question is not this frame's to answer; an answer without both fields is no answer.
    await apply('agent.busy', { reason: 'processing', answered: { picker_id: 'q2', value: 'yes' } });
    await apply('agent.busy', { reason: 'processing', answered: { picker_id: 'q3', value: 'no' } });
    await apply('agent.busy', { reason: 'processing', answered: { picker_id: 'qB', value: 'yes' } });
    await apply('agent.busy', { reason: 'processing', answered: { picker_id: 'q4' } });
    expect(await db.pickers.get('q2')).toMatchObject({ state: 'answered', answer: 'no' });
    expect(await db.pickers.get('q3')).toMatchObject({ state: 'answered', answer: 'no' });
    expect(await db.pickers.get('qB')).toMatchObject({ state: 'open' });
    expect(await db.pickers.get('q4')).toMatchObject({ state: 'closed' });
    expect(await db.pickers.get('q4')).not.toHaveProperty('answer');
  });
});

describe('notifications, history, media, sync, settings', () => {
  it('notification becomes a toast, once', async () => {
    const n = frame('notification', { kind: 'cron', title: 'Daily', body: 'ran', ts: 5 }, A);
    await applyFrame(db, n);
    await applyFrame(db, n);
    await apply('notification', { kind: 'generic', title: 'No ts', body: '' }, {}, 100);
    await apply('notification', { kind: 'generic', title: 'No ts', body: '' }, {}, 101);
    await apply('notification', { kind: 'generic' });
    expect((await db.toasts.orderBy('ts').toArray()).map(({ id: _, ...t }) => t)).toEqual([
      { kind: 'cron', title: 'Daily', body: 'ran', ts: 5, lane: 'A' },
      { kind: 'generic', title: 'No ts', body: '', ts: 100 },
    ]);
  });

  it('a notification that comes by sync replay is recorded but never shown', async () => {
    await applyFrames(
      db,
      [frame('notification', { kind: 'approval', title: 'Approval needed', body: 'Run it?', ts: 7 }, A)],
      { replay: true },
    );
    expect(await visibleToasts(db, undefined)).toEqual([]);
    // Its live copy, if one comes after all, is the same event: still not shown.
    await apply('notification', { kind: 'approval', title: 'Approval needed', body: 'Run it?', ts: 7 });
    expect(await visibleToasts(db, undefined)).toEqual([]);
    await apply('notification', { kind: 'cron', title: 'Reminder', body: 'now', ts: 8 });
    expect((await visibleToasts(db, undefined)).map((t) => t.title)).toEqual(['Reminder']);
  });

  it('a history reply with its tools (the extension) gets their cards in a turn of its own, once', async () => {
    const page = {
      messages: [
        { message_id: 'u1', role: 'user', text: 'Look it up', ts: 100 },
        {
          message_id: 'r1',
          role: 'assistant',
          text: 'Found it',
          ts: 200,
          tools: [
            { index: 0, name: 'web_search', ok: true, duration: 0.4, preview: 'web_search("x")' },
            { index: 1, name: 'shell', ok: false },
            { index: 1, name: 'again', ok: true }, // a repeated index: the first stands
            { index: -1, name: 'bad', ok: true },
            { index: 2, name: '', ok: true },
            { index: 3, name: 'no outcome' }, // finished, how not known: kept, as `done`
            { index: 4, name: 'odd outcome', ok: 'yes' }, // not a boolean: as if absent
            'junk',
          ],
        },
        { message_id: 'r2', role: 'assistant', text: 'No tools', ts: 300, tools: [] },
      ],
      has_more: false,
    };
    await apply('history', page);
    await apply('history', page);
    expect(await db.messages.get('r1')).toMatchObject({ turn: 'history:r1' });
    expect(await db.messages.get('r2')).not.toHaveProperty('turn');
    expect(await db.messages.get('u1')).not.toHaveProperty('turn');
    const cards = await db.activity.where('turn').equals('history:r1').sortBy('order');
    expect(cards.map((c) => [c.name, c.state, c.duration, c.preview, c.ts, c.lane])).toEqual([
      ['web_search', 'ok', 0.4, 'web_search("x")', 200, 'A'],
      ['shell', 'failed', undefined, undefined, 200, 'A'],
      ['no outcome', 'done', undefined, undefined, 200, 'A'],
      ['odd outcome', 'done', undefined, undefined, 200, 'A'],
    ]);
    expect(await db.activity.count()).toBe(4);
    // A reply this device saw live keeps its own turn and cards: history adds none.
    await apply('message.start', { message_id: 'r3', role: 'assistant' });
    await apply('tool.start', { index: 0, name: 'live_tool' });
    await apply('message.stop', { message_id: 'r3', final_text: 'Live' });
    await apply('history', {
      messages: [
        { message_id: 'r3', role: 'assistant', text: 'Live', ts: 400, tools: [{ index: 0, name: 'x', ok: true }] },
      ],
    });
    const live = (await db.messages.get('r3'))!.turn!;
    expect(live).not.toBe('history:r3');
    expect((await db.activity.where('turn').equals(live).toArray()).map((c) => c.name)).toEqual(['live_tool']);
    expect(await db.activity.where('turn').equals('history:r3').count()).toBe(0);
  });

  it('a whole reply (a message frame) with its tools: cards in a turn of its own; one that joined an open turn keeps its live cards', async () => {
    // Imported whole (the Hermes bridge's /attach sends each earlier message so): no turn is open.
    const imported = {
      message_id: 'm1',
      role: 'assistant',
      text: 'The command printed: ok',
      tools: [{ index: 0, name: 'terminal', preview: 'echo ok' }],
    };
    await apply('message', imported);
    await apply('message', imported);
    expect(await db.messages.get('m1')).toMatchObject({ turn: 'history:m1' });
    const cards = await db.activity.where('turn').equals('history:m1').toArray();
    expect(cards.map((c) => [c.name, c.state, c.preview])).toEqual([['terminal', 'done', 'echo ok']]);
    // Live: the tool frames opened a turn, and the reply that comes whole joins it with the cards they made.
    await apply('tool.start', { index: 0, name: 'live_tool' });
    await apply('tool.end', { index: 0, ok: true });
    await apply('message', {
      message_id: 'm2',
      role: 'assistant',
      text: 'Done',
      tools: [{ index: 0, name: 'x', ok: true }],
    });
    const turn = (await db.messages.get('m2'))!.turn!;
    expect(turn).not.toBe('history:m2');
    expect((await db.activity.where('turn').equals(turn).toArray()).map((c) => [c.name, c.state])).toEqual([
      ['live_tool', 'ok'],
    ]);
    expect(await db.activity.where('turn').equals('history:m2').count()).toBe(0);
  });

  it('a history reply takes its thought time from the gateway (the extension), unless measured here', async () => {
    await apply('message.start', { message_id: 'live', role: 'assistant' }, A, 1000);
    await apply('message.update', { message_id: 'live', text: 'Hi' }, A, 1500);
    await apply('history', {
      messages: [
        { message_id: 'old', role: 'assistant', text: 'A', reasoning: 'r', ts: 100, thought_ms: 2300 },
        { message_id: 'bad', role: 'assistant', text: 'B', reasoning: 'r', ts: 200, thought_ms: -5 },
        { message_id: 'live', role: 'assistant', text: 'Hi', reasoning: 'r', ts: 300, thought_ms: 9999 },
      ],
    });
    expect((await db.messages.get('old'))?.thought_ms).toBe(2300);
    expect(await db.messages.get('bad')).not.toHaveProperty('thought_ms');
    expect((await db.messages.get('live'))?.thought_ms).toBe(500);
  });

  it('history stores a page without duplicates and pages back in time only', async () => {
    await apply('message', { message_id: 'u3', role: 'user', text: 'q', ts: 30 });
    await apply('read.receipt', { message_id: 'u3' });
    const newest = frame(
      'history',
      {
        messages: [
          { message_id: 'm2', role: 'assistant', text: 'two', ts: 20 },
          { message_id: 'u3', role: 'user', text: 'q', ts: 30 },
          { message_id: 'bad' },
          { message_id: 'm4', role: 'assistant', text: 'four', ts: 40 },
        ],
        has_more: true,
        oldest_message_id: 'm2',
      },
      A,
    );
    await applyFrame(db, newest);
    expect((await laneMessages(db, 'A')).map((m) => [m.message_id, m.status])).toEqual([
      ['m2', 'final'],
      ['u3', 'read'],
      ['m4', 'final'],
    ]);
    expect(await getLane(db, 'A')).toMatchObject({ oldestMessageId: 'm2', hasMore: true });

    await apply('history', {
      messages: [{ message_id: 'm1', role: 'assistant', text: 'one', ts: 10 }],
      has_more: false,
      oldest_message_id: 'm1',
    });
    expect(await getLane(db, 'A')).toMatchObject({ oldestMessageId: 'm1', hasMore: false });

    // The newest page again (after a reconnect) does not undo the paging.
    await applyFrame(db, newest);
    expect(await getLane(db, 'A')).toMatchObject({ oldestMessageId: 'm1', hasMore: false });
    expect(await db.messages.count()).toBe(4);
  });

  it('history: a newer page that shares nothing with the stored messages pages back again over the gap', async () => {
    await apply('history', {
      messages: [
        { message_id: 'm1', role: 'user', text: 'one', ts: 10 },
        { message_id: 'm2', role: 'assistant', text: 'two', ts: 20 },
      ],
      has_more: false,
      oldest_message_id: 'm1',
    });
    expect(await getLane(db, 'A')).toMatchObject({ oldestMessageId: 'm1', hasMore: false });
    // Offline, m3…m9 were said elsewhere; the newest page after reconnecting holds m8 and m9 only.
    const newest = frame(
      'history',
      {
        messages: [
          { message_id: 'm8', role: 'user', text: 'eight', ts: 80 },
          { message_id: 'm9', role: 'assistant', text: 'nine', ts: 90 },
        ],
        has_more: true,
        oldest_message_id: 'm8',
      },
      A,
    );
    await applyFrame(db, newest);
    expect(await getLane(db, 'A')).toMatchObject({ oldestMessageId: 'm8', hasMore: true });
    // The same page again changes nothing.
    await applyFrame(db, newest);
    expect(await getLane(db, 'A')).toMatchObject({ oldestMessageId: 'm8', hasMore: true });
    // Paging back reaches the stored messages and the true beginning.
    await apply('history', {
      messages: [2, 3, 4, 5, 6, 7].map((n) => ({ message_id: `m${n}`, role: 'user', text: `${n}`, ts: n * 10 })),
      has_more: true,
      oldest_message_id: 'm2',
    });
    await apply('history', {
      messages: [{ message_id: 'm1', role: 'user', text: 'one', ts: 10 }],
      has_more: false,
      oldest_message_id: 'm1',
    });
    expect(await getLane(db, 'A')).toMatchObject({ oldestMessageId: 'm1', hasMore: false });
    expect((await laneMessages(db, 'A')).map((m) => m.message_id)).toEqual(
      [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => `m${n}`),
    );
  });

  it('history finishes a stale streaming bubble with the stored final text', async () => {
    await apply('message.start', { message_id: 'm1' });
    await apply('history', {
      messages: [{ message_id: 'm1', role: 'assistant', text: 'all of it', ts: 3 }],
      has_more: false,
    });
    expect(await db.messages.get('m1')).toMatchObject({ status: 'final', text: 'all of it', turn: 'A#1' });
  });

  it('media.offer joins the named message, or the lane newest assistant message', async () => {
    await apply('message', { message_id: 'a1', role: 'assistant', text: 'old', ts: 10 });
    await apply('message', { message_id: 'a2', role: 'assistant', text: 'new', ts: 20 });
    await apply('message', { message_id: 'u1', role: 'user', text: 'me', ts: 30 });
    const ref = { media_id: 'x1', kind: 'image', mime: 'image/png', size: 10, filename: 'x.png' };
    await apply('media.offer', ref, A, 500);
    await apply('media.offer', { ...ref, media_id: 'x2', message_id: 'a1' });
    await apply('media.offer', { ...ref, media_id: 'x3' }, {});
    expect(await db.media.get('x1')).toEqual({ ...ref, lane: 'A', message_id: 'a2', state: 'remote', lastUsed: 500 });
    expect((await db.messages.get('a2'))?.media).toEqual([ref]);
    expect((await db.messages.get('a1'))?.media?.map((m) => m.media_id)).toEqual(['x2']);
    expect(await db.media.get('x3')).toBeUndefined();

    // An offer before its message: the message picks it up when it arrives.
    await apply('media.offer', { ...ref, media_id: 'x4', message_id: 'a9' });
    await apply('message', {
      message_id: 'a9',
      role: 'assistant',
      text: 'pic',
      ts: 40,
      media: [{ ...ref, media_id: 'x5', kind: 'weird' }],
    });
    expect((await db.messages.get('a9'))?.media?.map((m) => [m.media_id, m.kind])).toEqual([
      ['x5', 'document'],
      ['x4', 'image'],
    ]);
    expect(await db.media.get('x5')).toMatchObject({ state: 'remote', message_id: 'a9', lane: 'A' });
  });

  it('a gateway\'s kind is only a claim: an SVG, HTML or XHTML "image" is stored as a document', async () => {
    await apply('message', { message_id: 'a1', role: 'assistant', text: 'files', ts: 10 });
    const offers = [
      { media_id: 's1', kind: 'image', mime: 'image/svg+xml', size: 10, filename: 'x.svg', message_id: 'a1' },
      { media_id: 'h1', kind: 'image', mime: 'text/html', size: 10, filename: 'x.html', message_id: 'a1' },
      { media_id: 'x1', kind: 'video', mime: 'application/xhtml+xml', size: 10, filename: 'x.xhtml', message_id: 'a1' },
      { media_id: 'p1', kind: 'image', mime: 'image/png', size: 10, filename: 'x.png', message_id: 'a1' },
    ];
    for (const offer of offers) await apply('media.offer', offer);
    expect((await db.media.toArray()).map((m) => [m.media_id, m.kind, m.mime])).toEqual([
      ['h1', 'document', 'text/html'],
      ['p1', 'image', 'image/png'],
      ['s1', 'document', 'image/svg+xml'],
      ['x1', 'document', 'application/xhtml+xml'],
    ]);
    expect((await db.messages.get('a1'))?.media?.map((m) => m.kind)).toEqual([
      'document',
      'document',
      'document',
      'image',
    ]);
  });

  it('sync.done stores the cursor per gateway, never backwards; batches store it with their frames', async () => {
    const gw = 'ws://gw';
    await applyFrame(db, frame('sync.done', { cursor: 7 }), { gateway: gw });
    await applyFrame(db, frame('sync.done', { cursor: 3 }), { gateway: gw });
    await applyFrame(db, frame('sync.done', { cursor: 'x' }), { gateway: gw });
    await applyFrame(db, frame('sync.done', { cursor: 99 }));
    expect(await getCursor(db, gw)).toBe(7);

    await applyFrames(
      db,
      [
        frame('message', { message_id: 'm1', role: 'assistant', text: 'a', ts: 1 }, A),
        frame('pong', {}),
        frame('message', { message_id: 'm2', role: 'assistant', text: 'b', ts: 2 }, A),
      ],
      { gateway: gw, cursor: 12 },
    );
    expect(await db.messages.count()).toBe(2);
    expect(await getCursor(db, gw)).toBe(12);

    await applyFrame(db, frame('pong', {}), { gateway: gw, cursor: 15 });
    expect(await getCursor(db, gw)).toBe(15);
  });

  it('a batch that fails to store leaves neither its frames nor its cursor', async () => {
    const gw = 'ws://gw';
    const broken = frame('message', { message_id: 'm2', role: 'assistant', text: 'b', ts: 2 }, A);
    // Sabotage one write so the transaction aborts.
    const put = db.messages.put.bind(db.messages);
    let calls = 0;
    db.messages.put = ((...args: Parameters<typeof put>) =>
      ++calls === 2 ? Promise.reject(new Error('disk full')) : put(...args)) as typeof put;
    // A batch writes its rows per table at its end (reduce/batch.ts): that write fails the same way.
    const bulkPut = db.messages.bulkPut.bind(db.messages);
    db.messages.bulkPut = ((rows: { message_id: string }[], ...rest: unknown[]) =>
      rows.some((r) => r.message_id === 'm2')
        ? Promise.reject(new Error('disk full'))
        : bulkPut(rows as never, ...(rest as []))) as unknown as typeof bulkPut;
    await expect(
      applyFrames(db, [frame('message', { message_id: 'm1', role: 'assistant', text: 'a', ts: 1 }, A), broken], {
        gateway: gw,
        cursor: 5,
      }),
    ).rejects.toThrow('disk full');
    db.messages.put = put;
    db.messages.bulkPut = bulkPut;
    expect(await db.messages.count()).toBe(0);
    expect(await getCursor(db, gw)).toBe(0);
  });

  it('commands.catalog and status are kept in settings; answers like pong change nothing', async () => {
    await apply(
      'commands.catalog',
      { commands: [{ name: 'model', description: 'switch', args_hint: '<name>' }, { description: 'nameless' }, 5] },
      {},
    );
    expect(await getSetting(db, 'commands')).toEqual([{ name: 'model', description: 'switch', args_hint: '<name>' }]);
    await apply('status', { state: 'restarting', session: { id: 1 } }, {});
    expect(await getSetting(db, 'gatewayStatus')).toEqual({ state: 'restarting', session: { id: 1 } });

    const before = await dump(db);
    for (const type of [
      'pong',
      'search.results',
      'commands.complete',
      'media.upload.ack',
      'media.pull.end',
      'made.up',
    ]) {
      await apply(type, { message_id: 'm1', role: 'assistant', text: 'x', code: 'auth' });
    }
    expect(await dump(db)).toEqual(before);
  });
});

describe('untrusted payloads', () => {
  const bad: [string, unknown, Record<string, unknown>?][] = [
    ['message', { message_id: 5, role: 'assistant', text: 'x' }],
    ['message', { message_id: 'm', role: 'wizard', text: 'x' }],
    ['message', { message_id: 'local:c1', role: 'user', text: 'spoof' }],
    ['message', { message_id: 'm', role: 'assistant' }, {}],
    ['message', 'not an object'],
    ['message', null],
    ['message.start', { message_id: ['m'] }],
    ['message.update', { message_id: 'ghost', text: 'x' }],
    ['message.update', { message_id: 'm', text: 5 }],
    ['message.stop', {}],
    ['message.deleted', { message_ids: 'm' }],
    ['read.receipt', { message_id: {} }],
    ['agent.busy', {}, {}],
    ['typing', { on: true }, { chat_id: 7 }],
    ['tool.start', { index: '0', name: 'x' }],
    ['tool.progress', { name: 'x' }],
    ['commentary', { message_id: 'k', text: 7 }],
    ['picker.choice', { title: 'no id' }],
    ['picker.approval', { picker_id: 'p' }, {}],
    ['notification', { kind: 'x', title: 1, body: null }],
    ['history', { messages: 'x' }],
    ['history', { messages: [] }, {}],
    ['media.offer', { kind: 'image' }],
    ['media.offer', { media_id: 'x' }, {}],
    ['sync.done', { cursor: -1 }],
    ['channel.created', { name: 'no id' }],
    ['channel.renamed', { chat_id: 5, name: 'x' }],
    ['channel.deleted', {}],
    ['commands.catalog', { commands: {} }],
    ['status', { state: 5 }],
    ['hello.ack', { channels: null, server_caps: 'x' }],
  ];

  it("times in epoch seconds (a Python gateway) are read as seconds; the schema's milliseconds as they are", async () => {
    const seconds = 1_796_000_000; // December 2026
    await apply('message', { message_id: 'a', role: 'assistant', text: 'a', ts: seconds });
    await apply('message.stop', { message_id: 'b', final_text: 'b', ts: seconds + 0.25 });
    await apply('history', { messages: [{ message_id: 'c', role: 'user', text: 'c', ts: seconds - 60 }] });
    await apply('message', { message_id: 'd', role: 'assistant', text: 'd', ts: seconds * 1000 + 5 });
    // No usable ts: its arrival.
    await apply('message', { message_id: 'e', role: 'assistant', text: 'e', ts: 0 }, A, seconds * 1000 + 9000);
    await apply('notification', { kind: 'cron', title: 'Reminder', body: '', ts: seconds });
    expect((await db.messages.bulkGet(['a', 'b', 'c', 'd', 'e'])).map((m) => m?.ts)).toEqual([
      seconds * 1000,
      seconds * 1000 + 250,
      (seconds - 60) * 1000,
      seconds * 1000 + 5,
      seconds * 1000 + 9000,
    ]);
    expect((await db.toasts.toArray()).map((t) => t.ts)).toEqual([seconds * 1000]);
  });

  it('never throw and change nothing', async () => {
    await queueSend(db, { client_id: 'c1', lane: 'A', chat_id: 'A', text: 'mine', now: 1 });
    const before = await dump(db);
    for (const [type, payload, envelope] of bad) {
      await expect(
        applyFrame(db, frame(type, payload, envelope ?? A), { now: 5, gateway: 'g' }),
      ).resolves.toBeUndefined();
    }
    expect(await dump(db)).toEqual(before);
    for (const junk of [null, undefined, 5, 'frame', [], { type: 5 }, { type: '' }, { type: 'message' }]) {
      await expect(applyFrame(db, junk as never)).resolves.toBeUndefined();
    }
    await expect(applyFrames(db, [null, { type: 'agent.idle' }] as never)).resolves.toBeUndefined();
    expect(await dump(db)).toEqual(before);
  });
});

describe('the rules', () => {
  it('name the frames the pipeline writes held updates before: those whose handlers touch message rows', () => {
    expect([...READS_MESSAGES].sort()).toEqual(
      [
        'agent.idle',
        'history',
        'media.offer',
        'message',
        'message.deleted',
        'message.start',
        'message.stop',
        'read.receipt',
      ].sort(),
    );
  });
});
