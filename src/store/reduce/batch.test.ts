// A replay reduced in memory (reduce/batch.ts, through the overlay) leaves every table exactly as
// the same frames applied one by one: realistic turns over several lanes and threads, echoes that
// replace pending bubbles, tool cards, pickers, media, deletions in between, split into batches at
// random places and replayed again from the middle (a drop mid-replay).
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ServerFrame } from '../../protocol';
import type { IrisDB } from '../db';
import { markRead } from '../models/lanes';
import { localMessageId } from '../models/messages';
import { queueSend } from '../models/outbox';
import { getCursor } from '../models/sync';
import { applyFrame, applyFrames } from '../reducer';
import { turnsOfActivityId } from './activity';
import { BatchOverlay } from './overlay';
import { dump, freshDb } from '../../testing/db';

const GATEWAY = 'ws://gw/ws';
const NOW = 1_700_000_000_000;

/** A small seeded generator (mulberry32): the same replay every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LANES = [{ chat_id: 'web:default' }, { chat_id: 'web:demo' }, { chat_id: 'web:default', thread_id: 't1' }];

function frame(type: string, env: object, payload: object, cursor: number): ServerFrame {
  return { v: 1, type, ...env, payload, cursor } as unknown as ServerFrame;
}

/** Turns as the gateway sends them, each frame with its cursor; some of the user's sends are this device's. */
function replay(
  seed: number,
  turns: number,
  /** With a notification for each question asked. */
  notifications = false,
): { frames: ServerFrame[]; ownSends: { clientId: string; lane: number }[] } {
  const rnd = random(seed);
  const frames: ServerFrame[] = [];
  const ownSends: { clientId: string; lane: number }[] = [];
  let cursor = 0;
  let ts = NOW - 1_000_000;
  const push = (type: string, env: object, payload: object) => frames.push(frame(type, env, payload, ++cursor));
  for (let t = 0; t < turns; t++) {
    const laneNo = Math.floor(rnd() * LANES.length);
    const env = LANES[laneNo]!;
    const user = `u${t}`;
    const reply = `a${t}`;
    const clientId = `c${t}`;
    if (rnd() < 0.3) ownSends.push({ clientId, lane: laneNo });
    if (t % 20 === 0) push('status', {}, { state: t === 0 ? 'ready' : 'busy', session: { turns: t } });
    push('message', env, {
      message_id: user,
      role: 'user',
      text: `question ${t}`,
      ts: (ts += 10),
      client_id: clientId,
    });
    push('read.receipt', env, { message_id: user });
    push('agent.busy', env, rnd() < 0.2 ? { reason: 'waiting_input' } : {});
    push('typing', env, { on: true });
    if (rnd() < 0.2) {
      push('picker.choice', env, { picker_id: `p${t}`, title: 'Pick', options: [{ id: 'x', label: 'X' }] });
      // Applied beside the overlay's runs (the toasts table has auto-increment keys the overlay does not hold).
      if (notifications)
        push('notification', env, { kind: 'choice', title: 'A question', body: `question ${t}`, ts: ts + 1 });
    }
    const tools = Math.floor(rnd() * 3);
    for (let i = 0; i < tools; i++) {
      push('tool.start', env, { index: i, name: `tool${i}`, args: { n: i } });
      push('tool.progress', env, { index: i, note: `step ${i}` });
      if (rnd() < 0.3) push('tool.progress', env, { index: i, note: `step ${i}` }); // the same note again
      push('tool.end', env, { index: i, ok: rnd() < 0.8, duration: 1.5 });
    }
    if (rnd() < 0.5) push('commentary', env, { message_id: reply, text: `thinking about ${t}` });
    push('agent.busy', env, {});
    if (rnd() < 0.8) {
      push('message.start', env, { message_id: reply, role: 'assistant' });
      for (let u = 1; u <= 3; u++)
        push('message.update', env, { message_id: reply, text: `answer ${t}`.slice(0, 4 * u) });
      if (rnd() < 0.9)
        push('message.stop', env, {
          message_id: reply,
          final_text: `answer ${t}`,
          ts: (ts += 10),
          model: 'm',
          tokens: 7,
        });
    } else {
      const media = rnd() < 0.5 ? [{ media_id: `f${t}`, kind: 'image', mime: 'image/png', size: 10 }] : undefined;
      push('message', env, {
        message_id: reply,
        role: 'assistant',
        text: `answer ${t}`,
        ts: (ts += 10),
        ...(media && { media }),
        // Its turn's tools (the extension): the reply joins the open turn, and they are not its cards.
        ...(rnd() < 0.5 && { tools: [{ index: 0, name: 'kept', ok: true }] }),
      });
    }
    push('typing', env, { on: false });
    push('agent.idle', env, {});
    // A reply that comes whole with its tools and no turn open (an imported one): cards of its own.
    if (rnd() < 0.1)
      push('message', env, {
        message_id: `imported${t}`,
        role: 'assistant',
        text: `imported ${t}`,
        ts: (ts += 10),
        tools: [
          { index: 0, name: 'terminal', preview: 'ls' },
          { index: 1, name: 'read_file', ok: false },
        ],
      });
    if (rnd() < 0.05) push('message.deleted', env, { message_ids: [user] });
    if (rnd() < 0.05) push('read.receipt', env, { message_id: reply });
  }
  return { frames, ownSends };
}

async function seeded(ownSends: { clientId: string; lane: number }[]): Promise<IrisDB> {
  const db = freshDb();
  for (const { clientId, lane } of ownSends) {
    const env = LANES[lane]!;
    const laneId = env.thread_id ?? env.chat_id;
    await queueSend(db, { client_id: clientId, lane: laneId, ...env, text: 'question', now: NOW - 2_000_000 });
  }
  return db;
}

const dbs: IrisDB[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
});

describe('a replay reduced in memory', () => {
  it('leaves every table as the same frames applied one by one, split anywhere, replayed again from the middle', async () => {
    // Served by the overlay throughout: a batch it cannot serve is applied frame by frame, with a warning.
    const warn = vi.spyOn(console, 'warn');
    for (const seed of [1, 2]) {
      const { frames, ownSends } = replay(seed, 50, true);
      const oneByOne = await seeded(ownSends);
      const batched = await seeded(ownSends);
      dbs.push(oneByOne, batched);
      // A drop halfway (no cursor stored), and the whole replay again from the stored cursor (0).
      const cut = Math.floor(frames.length / 2);
      for (const f of [...frames.slice(0, cut), ...frames])
        await applyFrame(oneByOne, f, { gateway: GATEWAY, now: NOW, replay: true });
      await applyFrame(oneByOne, frame('sync.done', {}, { cursor: frames.length }, 0), { gateway: GATEWAY, now: NOW });

      // The same frames in batches of random sizes.
      const rnd = random(seed * 7);
      for (let i = 0; i < cut;) {
        const size = 1 + Math.floor(rnd() * 120);
        await applyFrames(batched, frames.slice(i, Math.min(i + size, cut)), {
          gateway: GATEWAY,
          now: NOW,
          replay: true,
        });
        i += size;
      }
      expect(await getCursor(batched, GATEWAY)).toBe(0);
      for (let i = 0; i < frames.length;) {
        const size = 1 + Math.floor(rnd() * 300);
        const last = i + size >= frames.length;
        await applyFrames(batched, frames.slice(i, i + size), {
          gateway: GATEWAY,
          now: NOW,
          replay: true,
          ...(last && { cursor: frames.length }),
        });
        i += size;
      }
      // And in two whole batches (the size a replay's rest is stored in once sync.done has come): the
      // rows it writes land in several slices, and its index queries see every row changed before them.
      const whole = await seeded(ownSends);
      dbs.push(whole);
      await applyFrames(whole, frames.slice(0, cut), { gateway: GATEWAY, now: NOW, replay: true });
      await applyFrames(whole, frames, { gateway: GATEWAY, now: NOW, replay: true, cursor: frames.length });
      const want = await dump(oneByOne);
      const got = await dump(batched);
      const gotWhole = await dump(whole);
      expect(want.messages!.length).toBeGreaterThan(50);
      expect(want.activity!.length).toBeGreaterThan(10);
      expect(want.toasts!.length).toBeGreaterThan(3);
      for (const table of Object.keys(want)) {
        expect(got[table], `seed ${seed}, table ${table}`).toEqual(want[table]);
        expect(gotWhole[table], `seed ${seed}, table ${table}, whole batches`).toEqual(want[table]);
      }
    }
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  }, 120_000);

  it('stores every row of a batch that writes many (they are written a slice at a time)', async () => {
    const db = freshDb();
    dbs.push(db);
    const env = LANES[0]!;
    const frames: ServerFrame[] = [];
    for (let n = 1; n <= 1500; n++) {
      frames.push(frame('message.start', env, { message_id: `m${n}`, role: 'assistant', ts: NOW + n }, 2 * n - 1));
      frames.push(frame('message.stop', env, { message_id: `m${n}`, final_text: `answer ${n}` }, 2 * n));
    }
    frames.push(frame('agent.idle', env, {}, frames.length + 1));
    await applyFrames(db, frames, { gateway: GATEWAY, now: NOW, replay: true, cursor: frames.length });
    const rows = await db.messages.toArray();
    expect(rows.length).toBe(1500);
    expect(rows.filter((r) => r.text === `answer ${r.message_id.slice(1)}`).length).toBe(1500);
    expect(await getCursor(db, GATEWAY)).toBe(frames.length);
  });

  it('creates its tool cards and beats without reading each one first (the turns are loaded once)', async () => {
    const { frames, ownSends } = replay(3, 40);
    const db = await seeded(ownSends);
    dbs.push(db);
    const get = vi.spyOn(db.activity, 'get');
    await applyFrames(db, frames, { gateway: GATEWAY, now: NOW, replay: true, cursor: frames.length });
    const rows = await db.activity.toArray();
    expect(rows.filter((r) => r.kind === 'tool').length).toBeGreaterThan(10);
    expect(rows.filter((r) => r.kind === 'commentary').length).toBeGreaterThan(10);
    expect(get.mock.calls.map(([key]) => key as unknown).filter((key) => key !== '\u0000pause')).toEqual([]);
  });

  it('keeps a write that lands between the reduce of a chunk and its transaction (the person reads the lane)', async () => {
    // A replay's chunk is reduced before its transaction opens: a read mark stored meanwhile changes the
    // lane row the chunk read, so nothing is written and the chunk is reduced again, from the read mark;
    // if that changes again too, inside its transaction.
    const env = LANES[0]!;
    const chunk = [
      frame('agent.busy', env, {}, 2),
      frame('typing', env, { on: true }, 3),
      frame('message.start', env, { message_id: 'a1', role: 'assistant' }, 4),
      frame('message.update', env, { message_id: 'a1', text: 'ans' }, 5),
      frame('message.stop', env, { message_id: 'a1', final_text: 'answer', ts: NOW + 9 }, 6),
      frame('agent.idle', env, {}, 7),
    ];
    const start = async () => {
      const db = freshDb();
      dbs.push(db);
      await applyFrame(db, frame('message', env, { message_id: 'm0', role: 'user', text: 'hi', ts: NOW + 5 }, 1), {
        now: NOW,
      });
      return db;
    };
    const checked = vi.spyOn(BatchOverlay.prototype, 'unchanged');
    for (const races of [1, 2]) {
      checked.mockClear();
      const readTs = NOW + 4 + races;
      const inOrder = await start();
      await markRead(inOrder, 'web:default', 'm0', readTs);
      await applyFrames(inOrder, chunk, { gateway: GATEWAY, now: NOW, replay: true, cursor: 7 });
      // Nothing in between: what was reduced ahead is what is written.
      expect(await Promise.all(checked.mock.results.map((r) => r.value as Promise<boolean>))).toEqual([true]);

      checked.mockClear();
      const raced = await start();
      const open = raced.transaction.bind(raced) as (...args: unknown[]) => Promise<unknown>;
      let marks = 0;
      let marking = false;
      vi.spyOn(raced, 'transaction').mockImplementation(((...args: unknown[]) => {
        // The chunk's transactions (readwrite), each preceded by a read mark until `races` are stored.
        if (marking || args[0] !== 'rw' || marks >= races) return open(...args);
        marks++;
        marking = true;
        return markRead(raced, 'web:default', 'm0', NOW + 4 + marks).then(() => {
          marking = false;
          return open(...args);
        });
      }) as unknown as IrisDB['transaction']);
      const laneReads = vi.spyOn(raced.lanes, 'bulkGet');
      await applyFrames(raced, chunk, { gateway: GATEWAY, now: NOW, replay: true, cursor: 7 });
      expect(marks).toBe(races);
      // Reduced again over the rows its check had just read, the lane row among them: the lanes are read
      // by the first reduce and by each check (and, after a second change, by the reduce inside), not by
      // the reduce again.
      expect(laneReads).toHaveBeenCalledTimes(races === 1 ? 3 : 4);
      const checks = await Promise.all(checked.mock.results.map((r) => r.value as Promise<boolean>));
      expect(checks).toEqual(races === 1 ? [false, true] : [false, false]);
      expect((await raced.lanes.get('web:default'))?.readTs).toBe(readTs);
      expect(await dump(raced), `${races} read mark(s) in between`).toEqual(await dump(inOrder));
    }
    checked.mockRestore();
  });

  it('reads a chunk of new messages with a few requests, and sees a row that lands before its write where it read none', async () => {
    // Most keys a replay chunk reads have no row yet (its new messages, other devices' pending bubbles and
    // outbox rows): they are known absent from one listing of the keys in their range, not a request each.
    // A row stored under one of them between the reduce and its transaction (another tab applied the
    // same message, a send with the echo's client_id) is a change the check before the write finds.
    const env = LANES[0]!;
    const chunk: ServerFrame[] = [];
    for (let t = 0; t < 12; t++) {
      chunk.push(
        frame(
          'message',
          env,
          { message_id: `u${t}`, role: 'user', text: `q${t}`, ts: NOW + 10 * t, client_id: `c${t}` },
          5 * t + 1,
        ),
        frame('agent.busy', env, {}, 5 * t + 2),
        frame('message.start', env, { message_id: `a${t}`, role: 'assistant' }, 5 * t + 3),
        frame('message.stop', env, { message_id: `a${t}`, final_text: `answer ${t}`, ts: NOW + 10 * t + 5 }, 5 * t + 4),
        frame('agent.idle', env, {}, 5 * t + 5),
      );
    }
    // Another tab stored one of the chunk's messages (with a model the chunk does not give); the person
    // sent, from another tab, the message the chunk's echo answers.
    const landings: Record<string, (db: IrisDB) => Promise<unknown>> = {
      message: (db) =>
        applyFrame(
          db,
          frame(
            'message',
            env,
            { message_id: 'a3', role: 'assistant', text: 'other tab', ts: NOW + 35, model: 'm' },
            0,
          ),
          { now: NOW },
        ),
      send: (db) => queueSend(db, { client_id: 'c7', lane: 'web:default', ...env, text: 'q7', now: NOW - 5 }),
    };
    const start = async () => {
      const db = freshDb();
      dbs.push(db);
      await applyFrame(db, frame('message', env, { message_id: 'm0', role: 'user', text: 'hi', ts: NOW - 50 }, 0), {
        now: NOW,
      });
      return db;
    };
    for (const [what, landing] of Object.entries(landings)) {
      const inOrder = await start();
      await landing(inOrder);
      await applyFrames(inOrder, chunk, { gateway: GATEWAY, now: NOW, replay: true, cursor: chunk.length });

      const raced = await start();
      const asked: unknown[] = [];
      for (const table of [raced.messages, raced.outbox] as const) {
        const bulkGet = table.bulkGet.bind(table) as (keys: string[]) => Promise<unknown[]>;
        vi.spyOn(table, 'bulkGet').mockImplementation(((keys: string[]) => {
          asked.push(...keys);
          return bulkGet(keys);
        }) as never);
        const get = table.get.bind(table) as (key: string) => Promise<unknown>;
        vi.spyOn(table, 'get').mockImplementation(((key: string) => {
          asked.push(key);
          return get(key);
        }) as never);
      }
      const checked = vi.spyOn(BatchOverlay.prototype, 'unchanged');
      const open = raced.transaction.bind(raced) as (...args: unknown[]) => Promise<unknown>;
      let landed = false;
      vi.spyOn(raced, 'transaction').mockImplementation(((...args: unknown[]) => {
        if (landed || args[0] !== 'rw' || !Array.isArray(args[1])) return open(...args);
        landed = true;
        return landing(raced).then(() => open(...args));
      }) as unknown as IrisDB['transaction']);
      await applyFrames(raced, chunk, { gateway: GATEWAY, now: NOW, replay: true, cursor: chunk.length });
      expect(landed).toBe(true);
      // No key of its 24 new messages, 12 bubbles or 12 outbox rows was read one by one: only those of the
      // row that landed (by its write itself, and by the check and the reduce after it).
      expect(asked.filter((key) => key !== 'a3' && key !== 'c7' && key !== localMessageId('c7'))).toEqual([]);
      // Its check found the row that landed, and the chunk was reduced again over it.
      const checks = await Promise.all(checked.mock.results.map((r) => r.value as Promise<boolean>));
      expect(checks, what).toEqual([false, true]);
      checked.mockRestore();
      expect(await raced.outbox.get('c7')).toBeUndefined();
      expect(await raced.messages.get(localMessageId('c7'))).toBeUndefined();
      expect(await raced.messages.get('a3')).toMatchObject({ text: 'answer 3', status: 'final' });
      expect(await dump(raced), what).toEqual(await dump(inOrder));
    }
  });

  it('deletes only the outbox rows that exist, and those in the transaction that stores their echo', async () => {
    // Most replayed messages carry a client_id no outbox row has (another device's sends, ours already
    // settled): the chunk deletes nothing for them. Our own pending send is settled with its echo.
    const env = LANES[0]!;
    const db = freshDb();
    dbs.push(db);
    await queueSend(db, { client_id: 'mine', lane: 'web:default', ...env, text: 'question', now: NOW - 5 });
    const frames = [
      frame('message', env, { message_id: 'u1', role: 'user', text: 'a', ts: NOW, client_id: 'other1' }, 1),
      frame('message', env, { message_id: 'u2', role: 'user', text: 'question', ts: NOW + 1, client_id: 'mine' }, 2),
      frame('message', env, { message_id: 'u3', role: 'user', text: 'c', ts: NOW + 2, client_id: 'other2' }, 3),
    ];
    const deleted: unknown[] = [];
    const bulkDelete = db.outbox.bulkDelete.bind(db.outbox);
    vi.spyOn(db.outbox, 'bulkDelete').mockImplementation((keys) => {
      deleted.push(...keys);
      return bulkDelete(keys);
    });
    const del = vi.spyOn(db.outbox, 'delete');
    const rw: string[][] = [];
    const open = db.transaction.bind(db) as (...args: unknown[]) => Promise<unknown>;
    vi.spyOn(db, 'transaction').mockImplementation(((...args: unknown[]) => {
      // The chunk's own transactions (a list of table names); nested ones (the models') name a table.
      if (args[0] === 'rw' && Array.isArray(args[1])) rw.push([...(args[1] as string[])]);
      return open(...args);
    }) as unknown as IrisDB['transaction']);
    await applyFrames(db, frames, { gateway: GATEWAY, now: NOW, replay: true, cursor: 3 });
    expect(deleted).toEqual(['mine']);
    expect(del).not.toHaveBeenCalled();
    // One transaction stored the echo, removed the bubble and the outbox row, and stored the cursor.
    expect(rw).toHaveLength(1);
    expect(rw[0]).toEqual(expect.arrayContaining(['messages', 'outbox', 'sync']));
    expect(await db.outbox.count()).toBe(0);
    expect(await db.messages.get(localMessageId('mine'))).toBeUndefined();
    expect(await db.messages.get('u2')).toMatchObject({ client_id: 'mine', status: 'sent' });
    expect(await getCursor(db, GATEWAY)).toBe(3);
  });

  it('takes every `turn:tool:` or `turn:commentary:` prefix of an id as a turn its row may be in', () => {
    expect(turnsOfActivityId('web:a#3:tool:0')).toEqual(['web:a#3']);
    expect(turnsOfActivityId('x:tool:y#1:tool:2')).toEqual(['x', 'x:tool:y#1']);
    expect(turnsOfActivityId('web:a#3:commentary:m1:k')).toEqual(['web:a#3']);
    expect(turnsOfActivityId('web:a#3')).toEqual([]);
  });
});
