// Fuzzing the frame reducer (issue 9). `npm test` runs a few thousand generated frames;
// `npm run test:fuzz` at least 100,000 (FUZZ_INPUTS=100000; FUZZ_RUNS raises the property runs too).
//  - properties: applying a frame twice equals applying it once (spec README §8: replayed frames are
//    applied exactly as live ones), even when the repeat arrives later; a replay batch equals the same
//    frames one by one; any mix of valid and hostile frames keeps the invariants;
//  - volume: any mix of realistic and hostile frames, one by one or as replay batches with cursors, never
//    throws and keeps the invariants (one row per message id and client_id, every row in a lane,
//    valid statuses, the stored cursor never moves backwards);
//  - realistic sessions delivered the way a flaky link delivers them (frames repeated, replays of
//    whole turns after they finished, stale updates late, stop before start) end with exactly the
//    final messages the gateway sent, nothing pending or streaming, and no lane left busy;
//  - rows read back: junk stored in any table reads back as a row every screen can show.
import 'fake-indexeddb/auto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SERVER_FRAME_TYPES, type ServerFrame } from '../protocol';
import type { IrisDB } from './db';
import { queueSend } from './models/outbox';
import { applyFrame, applyFrames } from './reducer';
import { MAX_TOOL_NOTES } from './reduce/activity';
import {
  repairActivity,
  repairChannel,
  repairLane,
  repairMedia,
  repairMessage,
  repairPicker,
  repairToast,
} from './repair';
import type { ChannelRow, LaneRow, MessageRow } from './schema';
import { dump, freshDb, rawRows } from '../testing/db';

const INPUTS = Number(process.env.FUZZ_INPUTS) || 3_000;
/** Runs of each property (each run applies up to 30 frames to fresh databases). */
const RUNS = Number(process.env.FUZZ_RUNS) || 200;
const GATEWAY = 'ws://fuzz/ws';
const STATUSES = ['streaming', 'final', 'pending', 'sent', 'read', 'failed'];
/** fake-indexeddb manages roughly a few hundred transactions a second here: scale the time limit. */
const timeout = (frames: number) => Math.max(60_000, frames * 25);
// Generous: on a loaded 2-core machine a 200-run property took ~45 s (the limit is a hang guard, not a timing).
const PROPERTY_TIMEOUT = Math.max(60_000, RUNS * 600);
const at = (i: number) => 1_000 + i * 10;

const lanes = ['web:default', 'web:demo', 't1'] as const;
const envelopeOf = (lane: string): Record<string, string> =>
  lane === 't1' ? { chat_id: 'web:default', thread_id: 't1' } : { chat_id: lane };
const frame = (type: string, env: Record<string, unknown>, payload: unknown): ServerFrame =>
  ({ v: 1, type, ...env, payload }) as unknown as ServerFrame;

// ---------------------------------------------------------------------------------------------
// Generators

const ids = fc.constantFrom('m1', 'm2', 'm3', 'm4', 'm5', 'local:c1', '', 'constructor', '__proto__');
const texts = fc.oneof(fc.constantFrom('', 'x', 'hello', '<img src=x onerror=alert(1)>'), fc.string({ maxLength: 40 }));
const env = fc.oneof(
  fc.constantFrom<Record<string, unknown>>(
    ...lanes.map(envelopeOf),
    {},
    { chat_id: 'unknown:lane' },
    { thread_id: 't1' },
  ),
  fc.record({ chat_id: fc.anything(), thread_id: fc.anything() }, { requiredKeys: [] }),
);
const anyValue = fc.oneof(
  fc.anything({ maxDepth: 3 }),
  ids,
  texts,
  fc.integer(),
  fc.constantFrom(null, true, -1, 1.5, Number.MAX_SAFE_INTEGER + 2),
);

/** Frames of every server type with plausible payloads, each field sometimes of the wrong type. */
const plausible: fc.Arbitrary<ServerFrame> = fc
  .tuple(
    fc.constantFrom(...SERVER_FRAME_TYPES),
    env,
    fc.record(
      {
        message_id: fc.oneof(ids, anyValue),
        role: fc.oneof(fc.constantFrom('user', 'assistant', 'system', 'cron'), anyValue),
        text: fc.oneof(texts, anyValue),
        final_text: fc.oneof(texts, anyValue),
        reasoning: texts,
        client_id: fc.oneof(fc.constantFrom('c1', 'c2', 'c3'), anyValue),
        ts: fc.oneof(fc.integer({ min: 0, max: 1e13 }), anyValue),
        index: fc.oneof(fc.nat(3), anyValue),
        name: texts,
        picker_id: fc.oneof(fc.constantFrom('p1', 'p2'), anyValue),
        media_id: fc.oneof(fc.constantFrom('x1', 'x2'), anyValue),
        message_ids: fc.oneof(fc.array(ids, { maxLength: 3 }), anyValue),
        messages: fc.oneof(
          fc.array(
            fc.record({
              message_id: ids,
              role: fc.constantFrom('user', 'assistant'),
              text: texts,
              client_id: fc.constantFrom('c1', 'c2'),
            }),
            { maxLength: 3 },
          ),
          anyValue,
        ),
        channels: fc.oneof(
          fc.array(
            fc.record({
              chat_id: fc.oneof(fc.constantFrom(...lanes), anyValue),
              name: texts,
              kind: fc.constantFrom('default', 'channel', 'thread', 'x'),
            }),
            { maxLength: 3 },
          ),
          anyValue,
        ),
        chat_id: fc.oneof(fc.constantFrom(...lanes), anyValue),
        cursor: fc.oneof(fc.integer({ min: -5, max: 200 }), anyValue),
        on: fc.oneof(fc.boolean(), anyValue),
        reason: fc.constantFrom('processing', 'tool', 'waiting_input', 'cron', 'x'),
        kind: fc.constantFrom('image', 'generic', 'cron', 'approval'),
      },
      { requiredKeys: [] },
    ),
  )
  .map(([type, e, p]) => frame(type, e, p));

/** Anything at all where a frame goes. */
const hostile: fc.Arbitrary<ServerFrame> = fc.oneof(
  fc.anything().map((x) => x as unknown as ServerFrame),
  fc
    .record(
      {
        type: fc.oneof(fc.constantFrom(...SERVER_FRAME_TYPES), fc.string()),
        payload: fc.anything(),
        chat_id: fc.anything(),
        thread_id: fc.anything(),
      },
      { requiredKeys: ['type'] },
    )
    .map((x) => x as unknown as ServerFrame),
);

type Step = { kind: 'one'; frame: ServerFrame } | { kind: 'batch'; frames: ServerFrame[]; cursor: number };
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.oneof(plausible, plausible, hostile).map((f) => ({ kind: 'one' as const, frame: f })) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.array(fc.oneof(plausible, hostile), { maxLength: 8 }), fc.integer({ min: 0, max: 300 }))
      .map(([frames, cursor]) => ({ kind: 'batch' as const, frames, cursor })),
  },
);
const framesIn = (s: Step) => (s.kind === 'one' ? 1 : s.frames.length);

// Valid frames of the common types, and known types with mangled payloads and envelopes.

const envelope = fc.constantFrom<Record<string, string>>(
  ...lanes.map(envelopeOf),
  { chat_id: 't1' }, // a thread addressed by its own id as the chat
  {},
);
const messageId = fc.constantFrom('m1', 'm2', 'm3', 'm4');
const clientId = fc.constantFrom('c1', 'c2', 'c3');
const role = fc.constantFrom('user', 'assistant', 'system', 'cron');
const text = fc.constantFrom('', 'x', 'hello', 'hello world');
const ts = fc.integer({ min: 1, max: 100 });
const mediaRef = fc.record(
  {
    media_id: fc.constantFrom('x1', 'x2'),
    kind: fc.constantFrom('image', 'voice'),
    mime: fc.constant('image/png'),
    size: fc.nat(10),
    filename: fc.constant('f'),
  },
  { requiredKeys: ['media_id'] },
);
const channelEntry = fc.record(
  {
    chat_id: fc.constantFrom(...lanes),
    name: fc.constantFrom('A', 'B', 'T'),
    kind: fc.constantFrom('default', 'channel', 'thread'),
    parent_chat_id: fc.constantFrom('web:default', 'web:demo'),
    is_default: fc.boolean(),
    favorite: fc.boolean(),
    archived: fc.boolean(),
  },
  { requiredKeys: ['chat_id'] },
);
const historyEntry = fc.record(
  { message_id: messageId, role, text, ts, client_id: clientId, media: fc.array(mediaRef, { maxLength: 2 }) },
  { requiredKeys: ['message_id'] },
);

function framed(type: string, payload: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<ServerFrame> {
  return fc.tuple(envelope, payload).map(([env, p]) => ({ v: 1, type, ...env, payload: p }) as unknown as ServerFrame);
}

/** Frames of the common types with well-formed payloads, over a few ids, so they collide often. */
const validFrame: fc.Arbitrary<ServerFrame> = fc.oneof(
  framed(
    'message',
    fc.record(
      {
        message_id: messageId,
        role,
        text,
        ts,
        client_id: clientId,
        reasoning: text,
        media: fc.array(mediaRef, { maxLength: 2 }),
      },
      { requiredKeys: ['message_id', 'role', 'text'] },
    ),
  ),
  framed('message.start', fc.record({ message_id: messageId, role }, { requiredKeys: ['message_id'] })),
  framed('message.update', fc.record({ message_id: messageId, text })),
  framed(
    'message.stop',
    fc.record(
      { message_id: messageId, final_text: text, reasoning: text, model: text, tokens: fc.nat(50), ts },
      { requiredKeys: ['message_id'] },
    ),
  ),
  framed('message.deleted', fc.record({ message_ids: fc.subarray(['m1', 'm2', 'm3', 'm4', 'k1']) })),
  framed('read.receipt', fc.record({ message_id: messageId })),
  framed(
    'agent.busy',
    fc.record({ reason: fc.constantFrom('processing', 'tool', 'waiting_input', 'cron') }, { requiredKeys: [] }),
  ),
  framed('agent.idle', fc.constant({})),
  framed('typing', fc.record({ on: fc.boolean() })),
  framed(
    'tool.start',
    fc.record(
      { index: fc.nat(2), name: text, preview: text, args: fc.constant({ q: 1 }) },
      { requiredKeys: ['index'] },
    ),
  ),
  framed('tool.progress', fc.record({ index: fc.nat(2), name: text, note: text }, { requiredKeys: ['index'] })),
  framed(
    'tool.end',
    fc.record(
      { index: fc.nat(2), name: text, ok: fc.boolean(), duration: fc.nat(9), output_preview: text },
      { requiredKeys: ['index'] },
    ),
  ),
  framed('commentary', fc.record({ message_id: fc.constantFrom('k1', 'k2'), text })),
  framed(
    'picker.choice',
    fc.record({
      picker_id: fc.constantFrom('p1', 'p2'),
      title: text,
      choices: fc.constant([{ value: 'v', label: 'V' }]),
    }),
  ),
  framed('picker.approval', fc.record({ picker_id: fc.constantFrom('p1', 'p3'), command: text })),
  framed(
    'notification',
    fc.record(
      { kind: fc.constantFrom('cron', 'generic'), title: text, body: text, ts },
      { requiredKeys: ['kind', 'title', 'body'] },
    ),
  ),
  framed(
    'history',
    fc.record(
      { messages: fc.array(historyEntry, { maxLength: 4 }), has_more: fc.boolean(), oldest_message_id: messageId },
      { requiredKeys: ['messages'] },
    ),
  ),
  framed(
    'media.offer',
    fc
      .tuple(mediaRef, fc.option(messageId, { nil: undefined }))
      .map(([ref, id]) => (id ? { ...ref, message_id: id } : ref)),
  ),
  framed('channel.list', fc.record({ channels: fc.array(channelEntry, { maxLength: 4 }) })),
  framed(
    'channel.created',
    fc.tuple(channelEntry, fc.boolean()).map(([c, auto]) => ({ ...c, auto })),
  ),
  framed(
    'channel.renamed',
    fc.oneof(channelEntry, fc.record({ chat_id: fc.constantFrom('web:default', 't1'), name: text })),
  ),
  framed('channel.deleted', fc.record({ chat_id: fc.constantFrom(...lanes) })),
  framed('sync.done', fc.record({ cursor: fc.nat(20) })),
  framed(
    'commands.catalog',
    fc.record({ commands: fc.array(fc.record({ name: text, description: text }), { maxLength: 3 }) }),
  ),
  framed('status', fc.record({ state: fc.constantFrom('online', 'degraded') })),
);

/** Frames a broken or hostile gateway could send: known types with any payload, odd envelopes. */
const mangledFrame: fc.Arbitrary<ServerFrame> = fc
  .record({
    type: fc.oneof(fc.constantFrom(...SERVER_FRAME_TYPES), fc.string()),
    chat_id: fc.oneof(fc.constantFrom('web:default', 't1', ''), fc.anything()),
    thread_id: fc.option(fc.oneof(fc.constant('t1'), fc.anything()), { nil: undefined }),
    payload: fc.oneof(
      fc.anything(),
      fc.dictionary(
        fc.constantFrom(
          'message_id',
          'role',
          'text',
          'client_id',
          'index',
          'picker_id',
          'media_id',
          'message_ids',
          'messages',
          'channels',
          'cursor',
          'ts',
          'on',
        ),
        fc.oneof(fc.anything(), messageId, fc.constantFrom('local:c1', 'c1', 'user', 'web:default')),
      ),
    ),
  })
  .map((f) => ({ v: 1, ...f }) as unknown as ServerFrame);

// ---------------------------------------------------------------------------------------------
// Invariants

async function cursorOf(db: IrisDB): Promise<number> {
  return (await db.sync.get(GATEWAY))?.cursor ?? 0;
}

const REPAIRS: Record<string, (row: unknown) => unknown> = {
  messages: repairMessage,
  channels: repairChannel,
  lanes: repairLane,
  activity: repairActivity,
  media: repairMedia,
  pickers: repairPicker,
  toasts: repairToast,
};

async function expectInvariants(db: IrisDB): Promise<void> {
  const messages = await rawRows<MessageRow>(db, 'messages');
  const seen = new Set<string>();
  const byClient = new Map<string, string[]>();
  for (const m of messages) {
    expect(seen.has(m.message_id), `message id ${m.message_id} twice`).toBe(false);
    seen.add(m.message_id);
    expect(typeof m.lane === 'string' && m.lane !== '', `message ${m.message_id} without lane`).toBe(true);
    expect(typeof m.chat_id === 'string' && m.chat_id !== '', `message ${m.message_id} without chat_id`).toBe(true);
    expect(STATUSES, `status of ${m.message_id}`).toContain(m.status);
    expect(typeof m.text).toBe('string');
    expect(Number.isFinite(m.ts)).toBe(true);
    if (m.status === 'streaming') expect(m.turn, `streaming ${m.message_id} without its turn`).toBeTypeOf('string');
    // Only the app's own unsent messages carry a local id, and they are always pending or failed.
    expect(m.message_id.startsWith('local:'), `status ${m.status} of ${m.message_id}`).toBe(
      m.status === 'pending' || m.status === 'failed',
    );
    if (m.client_id !== undefined) byClient.set(m.client_id, [...(byClient.get(m.client_id) ?? []), m.message_id]);
  }
  for (const [clientId, holders] of byClient)
    expect(holders, `client_id ${clientId} shown ${holders.length} times`).toHaveLength(1);
  for (const table of ['activity', 'pickers', 'media', 'lanes']) {
    for (const row of await rawRows<{ lane?: unknown }>(db, table)) {
      if (table === 'media' && row.lane === undefined) continue; // media known before its lane (an upload)
      expect(typeof row.lane === 'string' && row.lane !== '', `${table} row without lane`).toBe(true);
    }
  }
  // Whatever the reducer writes passes the read-time checks untouched (they never have to repair it).
  for (const [table, repair] of Object.entries(REPAIRS)) {
    for (const row of await rawRows<unknown>(db, table))
      expect(repair(row), `${table} row the reducer wrote: ${JSON.stringify(row).slice(0, 200)}`).toBe(row);
  }
  for (const lane of await rawRows<LaneRow>(db, 'lanes')) {
    // The open turn is the newest one opened, or a reply's whose start a replay brought again (resumed).
    if (lane.turn !== undefined && lane.turn !== `${lane.lane}#${lane.turnSeq}`)
      expect(
        messages.some((m) => m.lane === lane.lane && m.turn === lane.turn),
        `lane turn ${lane.turn}`,
      ).toBe(true);
    expect(lane.readTs).toBeGreaterThanOrEqual(0);
  }
  for (const o of await db.outbox.toArray()) expect(['queued', 'sending', 'failed']).toContain(o.state);
  for (const c of await rawRows<ChannelRow>(db, 'channels'))
    expect(typeof c.chat_id === 'string' && c.chat_id !== '').toBe(true);
}

async function seeded(): Promise<IrisDB> {
  const db = freshDb();
  await queueSend(db, { client_id: 'c1', lane: 'web:default', chat_id: 'web:default', text: 'hello', now: 5 });
  await queueSend(db, {
    client_id: 'c2',
    lane: 't1',
    chat_id: 'web:default',
    thread_id: 't1',
    text: 'in a thread',
    now: 6,
  });
  return db;
}

describe('reducer properties', () => {
  it(
    'applying each frame twice in a row leaves the same DB as applying it once',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.oneof({ weight: 5, arbitrary: validFrame }, { weight: 1, arbitrary: mangledFrame }), {
            maxLength: 25,
          }),
          async (frames) => {
            const once = await seeded();
            const twice = await seeded();
            try {
              for (const [i, f] of frames.entries()) {
                await applyFrame(once, f, { now: at(i), gateway: GATEWAY });
                await applyFrame(twice, f, { now: at(i), gateway: GATEWAY });
                // The repeat arrives later: the result must not depend on arrival time either.
                await applyFrame(twice, f, { now: at(i) + 1, gateway: GATEWAY });
              }
              expect(await dump(twice)).toEqual(await dump(once));
            } finally {
              once.close();
              twice.close();
            }
          },
        ),
        { numRuns: RUNS },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'any mix of valid and hostile frames never throws and keeps the invariants',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.oneof(validFrame, mangledFrame), { maxLength: 30 }), async (frames) => {
          const db = await seeded();
          try {
            for (const [i, f] of frames.entries()) await applyFrame(db, f, { now: at(i), gateway: GATEWAY });
            await expectInvariants(db);
          } finally {
            db.close();
          }
        }),
        { numRuns: RUNS },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'a replay batch gives the same DB as the same frames applied one by one',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(validFrame, { maxLength: 20 }), fc.nat(50), async (frames, cursor) => {
          const single = await seeded();
          const batch = await seeded();
          try {
            for (const f of frames) await applyFrame(single, f, { now: 42, gateway: GATEWAY });
            await applyFrame(single, { v: 1, type: 'sync.done', payload: { cursor } } as ServerFrame, {
              gateway: GATEWAY,
            });
            await applyFrames(batch, frames, { now: 42, gateway: GATEWAY, cursor });
            expect(await dump(batch)).toEqual(await dump(single));
          } finally {
            single.close();
            batch.close();
          }
        }),
        { numRuns: Math.ceil(RUNS / 4) },
      );
    },
    PROPERTY_TIMEOUT,
  );
});

describe('reducer fuzzing', () => {
  /** Frames per database: long enough that creating databases is not what the time goes into. */
  const perRun = 100;

  it(
    `never throws on ${INPUTS} generated frames and keeps its invariants; the cursor never moves back`,
    async () => {
      let applied = 0;
      let runs = 0;
      // fast-check runs the property numRuns times; each run applies about perRun frames. Keep going
      // (fresh seeds) until INPUTS frames have been applied in all.
      while (applied < INPUTS) {
        await fc.assert(
          fc.asyncProperty(fc.array(step, { minLength: perRun / 2, maxLength: perRun }), async (steps) => {
            const db = await seeded();
            try {
              let cursor = await cursorOf(db);
              for (const [i, s] of steps.entries()) {
                const now = 1_000 + i;
                if (s.kind === 'one') await applyFrame(db, s.frame, { now, gateway: GATEWAY });
                else await applyFrames(db, s.frames, { now, gateway: GATEWAY, cursor: s.cursor });
                applied += framesIn(s);
                if (s.kind === 'batch' || s.frame?.type === 'sync.done') {
                  const next = await cursorOf(db);
                  expect(next, 'the cursor moved backwards').toBeGreaterThanOrEqual(cursor);
                  cursor = next;
                }
              }
              await expectInvariants(db);
            } finally {
              db.close();
            }
          }),
          { numRuns: Math.max(5, Math.ceil((INPUTS - applied) / (perRun * 0.8))) },
        );
        runs++;
      }
      expect(applied).toBeGreaterThanOrEqual(INPUTS);
      expect(runs).toBeGreaterThan(0);
    },
    timeout(INPUTS),
  );

  it(
    'a flaky link (repeats, late replays, stale updates, stop before start) ends with exactly the final messages',
    async () => {
      const sessions = Math.max(20, Math.ceil(INPUTS / 200));
      await fc.assert(
        fc.asyncProperty(session, fc.array(fc.nat(), { minLength: 30, maxLength: 30 }), async (s, noise) => {
          const db = freshDb();
          try {
            for (const send of s.sends)
              await queueSend(db, {
                client_id: send.clientId,
                lane: send.lane,
                chat_id: envelopeOf(send.lane).chat_id!,
                ...(send.lane === 't1' && { thread_id: 't1' }),
                text: send.text,
                now: send.at,
              });
            const delivered = deliverFlakily(s.frames, noise);
            for (const [i, f] of delivered.entries()) await applyFrame(db, f, { now: 10_000 + i, gateway: GATEWAY });
            await expectInvariants(db);
            const rows = await db.messages.toArray();
            for (const m of s.finals) {
              const row = rows.find((r) => r.message_id === m.message_id);
              expect(row, `final message ${m.message_id}`).toBeDefined();
              expect(row!.text).toBe(m.text);
              expect(row!.lane).toBe(m.lane);
              expect(row!.status).toMatch(m.role === 'user' ? /^(sent|read)$/ : /^final$/);
            }
            expect(rows.map((r) => r.message_id).sort()).toEqual(s.finals.map((m) => m.message_id).sort());
            expect(await db.outbox.count()).toBe(0);
            for (const lane of await db.lanes.toArray()) expect(lane.busy, `lane ${lane.lane} left busy`).toBe(false);
          } finally {
            db.close();
          }
        }),
        { numRuns: sessions },
      );
    },
    timeout(INPUTS),
  );
});

describe('rows read back', () => {
  const junk = fc.oneof(
    fc.anything({ maxDepth: 2 }),
    fc.string(),
    fc.integer(),
    fc.constant(null),
    fc.constant(undefined),
  );
  const fields = (names: string[]) => fc.record(Object.fromEntries(names.map((n) => [n, junk])), { requiredKeys: [] });
  const tables = {
    messages: [
      'message_id',
      'lane',
      'chat_id',
      'thread_id',
      'role',
      'text',
      'reasoning',
      'model',
      'tokens',
      'ts',
      'status',
      'client_id',
      'reply_to',
      'media',
      'turn',
      'error',
    ],
    channels: [
      'chat_id',
      'name',
      'kind',
      'parent_chat_id',
      'is_default',
      'archived',
      'favorite',
      'icon',
      'color',
      'order',
    ],
    lanes: [
      'lane',
      'readTs',
      'readMessageId',
      'busy',
      'busyReason',
      'typing',
      'turn',
      'turnSeq',
      'oldestMessageId',
      'hasMore',
      'autoThread',
    ],
    activity: [
      'id',
      'lane',
      'turn',
      'kind',
      'ts',
      'order',
      'index',
      'name',
      'preview',
      'args',
      'notes',
      'state',
      'duration',
      'output',
      'message_id',
      'text',
    ],
    media: [
      'media_id',
      'kind',
      'mime',
      'size',
      'filename',
      'lane',
      'message_id',
      'state',
      'progress',
      'lastUsed',
      'error',
      'width',
      'height',
      'duration',
      'client_id',
      'position',
    ],
    pickers: ['picker_id', 'lane', 'type', 'payload', 'state', 'answer', 'ts'],
    toasts: ['kind', 'title', 'body', 'lane', 'ts'],
  } as const;
  const keyOf: Record<string, string> = {
    messages: 'message_id',
    channels: 'chat_id',
    lanes: 'lane',
    activity: 'id',
    media: 'media_id',
    pickers: 'picker_id',
  };

  it(
    'any junk stored in any table reads back as a row every screen can show',
    async () => {
      const db = freshDb();
      try {
        await fc.assert(
          fc.asyncProperty(
            fc
              .constantFrom(...(Object.keys(tables) as (keyof typeof tables)[]))
              .chain((table) =>
                fc.tuple(fc.constant(table), fields([...tables[table]]), fc.string({ minLength: 1, maxLength: 8 })),
              ),
            async ([table, generated, key]) => {
              const row = { ...generated } as Record<string, unknown>;
              if (keyOf[table]) row[keyOf[table]!] = key;
              else delete row.id;
              const t = db.table(table);
              await t.clear();
              await t.put(row);
              const [read] = (await t.toArray()) as Record<string, unknown>[];
              const bad = Object.entries(read!).filter(([k, v]) => v === null && k !== 'parent_chat_id');
              expect(bad, `${table}: null fields after repair`).toEqual([]);
              if (table === 'messages') {
                expect(typeof read!.text).toBe('string');
                expect(STATUSES).toContain(read!.status);
                expect(['user', 'assistant', 'system', 'cron']).toContain(read!.role);
                expect(Number.isFinite(read!.ts)).toBe(true);
                if (read!.media !== undefined) expect(Array.isArray(read!.media)).toBe(true);
              }
              if (table === 'channels') expect(typeof read!.name === 'string' && read!.name !== '').toBe(true);
              if (table === 'lanes') expect(typeof read!.busy).toBe('boolean');
              if (table === 'pickers') expect(typeof read!.payload === 'object' && read!.payload !== null).toBe(true);
              if (table === 'toasts') expect([typeof read!.title, typeof read!.body]).toEqual(['string', 'string']);
              if (table === 'activity' && read!.notes !== undefined) expect(Array.isArray(read!.notes)).toBe(true);
              if (table === 'media')
                expect([typeof read!.size, typeof read!.filename, typeof read!.mime]).toEqual([
                  'number',
                  'string',
                  'string',
                ]);
              if (table === 'media')
                for (const f of ['width', 'height', 'duration', 'position'])
                  if (read![f] !== undefined) expect(Number.isFinite(read![f]), `media ${f}`).toBe(true);
              if (table === 'media' && read!.client_id !== undefined) expect(typeof read!.client_id).toBe('string');
              if (table === 'messages' && Array.isArray(read!.media))
                for (const m of read!.media as Record<string, unknown>[])
                  expect([typeof m.mime, typeof m.size, typeof m.filename]).toEqual(['string', 'number', 'string']);
            },
          ),
          { numRuns: Math.max(200, Math.ceil(INPUTS / 20)) },
        );
      } finally {
        db.close();
      }
    },
    timeout(INPUTS),
  );

  it('rows the app wrote itself come back as they are', async () => {
    const db = await seeded();
    try {
      const e = envelopeOf('web:default');
      for (const f of [
        frame('message', e, {
          message_id: 'm1',
          role: 'assistant',
          text: 'hi',
          reasoning: 'r',
          model: 'x',
          tokens: 2,
          ts: 5,
          media: [{ media_id: 'x1', kind: 'image', mime: 'image/png', size: 3, filename: 'a.png' }],
        }),
        frame('message.start', e, { message_id: 'm2', role: 'assistant' }),
        frame('tool.start', e, { index: 0, name: 't', preview: 'p', args: { a: 1 } }),
        frame('tool.progress', e, { index: 0, name: 't', note: 'n' }),
        frame('picker.choice', e, { picker_id: 'p1', title: 'T', choices: [{ value: 'v', label: 'L' }] }),
        frame('notification', e, { kind: 'generic', title: 't', body: 'b', ts: 3 }),
        frame(
          'channel.list',
          {},
          { channels: [{ chat_id: 'web:default', name: 'General', kind: 'default', is_default: true }] },
        ),
      ])
        await applyFrame(db, f, { gateway: GATEWAY, now: 10 });
      for (const table of db.tables) {
        if (table.name === 'mediaBlobs') continue;
        const rows = await table.toArray();
        const raw = await rawRows(db, table.name);
        expect(rows, table.name).toEqual(raw);
      }
    } finally {
      db.close();
    }
  });
});

describe('volume', () => {
  it('tool arguments nested absurdly deep or absurdly large still leave a tool card', async () => {
    const db = freshDb();
    try {
      const e = envelopeOf('web:default');
      let deep: Record<string, unknown> = { leaf: 1 };
      for (let i = 0; i < 20_000; i++) deep = { a: deep };
      await applyFrame(db, frame('message.start', e, { message_id: 'a', role: 'assistant' }), { gateway: GATEWAY });
      await applyFrame(db, frame('tool.start', e, { index: 0, name: 'deep', args: deep }), { gateway: GATEWAY });
      await applyFrame(db, frame('tool.start', e, { index: 1, name: 'wide', args: { blob: 'x'.repeat(1_000_000) } }), {
        gateway: GATEWAY,
      });
      await applyFrame(db, frame('tool.start', e, { index: 2, name: 'normal', args: { q: 'weather', n: [1, 2] } }), {
        gateway: GATEWAY,
      });
      const cards = new Map((await db.activity.toArray()).map((r) => [r.name, r]));
      expect(cards.get('deep')?.args).toEqual({ note: 'The arguments are nested too deeply to show.' });
      expect(String(cards.get('wide')?.args?.note)).toMatch(/too large to show/);
      expect(cards.get('normal')?.args).toEqual({ q: 'weather', n: [1, 2] });
    } finally {
      db.close();
    }
  });

  it('an endless stream of tool progress keeps the newest notes only, so every write stays small', async () => {
    const db = freshDb();
    try {
      const e = envelopeOf('web:default');
      await applyFrame(db, frame('message.start', e, { message_id: 'a', role: 'assistant' }), { gateway: GATEWAY });
      await applyFrame(db, frame('tool.start', e, { index: 0, name: 'long' }), { gateway: GATEWAY });
      for (let i = 0; i < 2_000; i++)
        await applyFrame(db, frame('tool.progress', e, { index: 0, name: 'long', note: `step ${i}` }), {
          gateway: GATEWAY,
        });
      const [card] = (await db.activity.toArray()).filter((r) => r.kind === 'tool');
      expect(card!.notes).toHaveLength(MAX_TOOL_NOTES);
      expect(card!.notes!.at(-1)).toBe('step 1999');
      expect(card!.notes![0]).toBe(`step ${2_000 - MAX_TOOL_NOTES}`);
    } finally {
      db.close();
    }
  }, 120_000);
});

// ---------------------------------------------------------------------------------------------
// Realistic sessions, as the reference gateway streams them (spec README §5, §7).

interface Session {
  sends: { clientId: string; lane: string; text: string; at: number }[];
  frames: ServerFrame[];
  finals: { message_id: string; lane: string; role: string; text: string }[];
  /** Index of the first frame of each turn: a replay starts there. */
  turnStarts: number[];
}

const turn = fc.record({
  lane: fc.constantFrom(...lanes),
  text: fc.string({ minLength: 1, maxLength: 20 }),
  updates: fc.array(fc.string({ maxLength: 6 }), { minLength: 0, maxLength: 6 }),
  tools: fc.nat(2),
  commentary: fc.boolean(),
  echoFirst: fc.boolean(),
});

const session: fc.Arbitrary<Session> = fc.array(turn, { minLength: 1, maxLength: 5 }).map((turns) => {
  const s: Session = { sends: [], frames: [], finals: [], turnStarts: [] };
  turns.forEach((t, i) => {
    const e = envelopeOf(t.lane);
    const clientId = `c-${i}`;
    const userId = `u-${i}`;
    const replyId = `a-${i}`;
    s.turnStarts.push(s.frames.length);
    s.sends.push({ clientId, lane: t.lane, text: t.text, at: 100 + i });
    s.frames.push(
      frame('message', e, { message_id: userId, role: 'user', text: t.text, client_id: clientId, ts: 1_000 + i * 10 }),
    );
    s.frames.push(frame('read.receipt', e, { message_id: userId }));
    s.frames.push(frame('agent.busy', e, { reason: 'processing' }));
    s.frames.push(frame('typing', e, { on: true }));
    s.frames.push(frame('message.start', e, { message_id: replyId, role: 'assistant' }));
    let text = '';
    for (const u of t.updates) {
      text += u;
      s.frames.push(frame('message.update', e, { message_id: replyId, text }));
    }
    if (t.commentary) s.frames.push(frame('commentary', e, { message_id: `k-${i}`, text: 'thinking' }));
    for (let k = 0; k < t.tools; k++) {
      s.frames.push(frame('agent.busy', e, { reason: 'tool' }));
      s.frames.push(frame('tool.start', e, { index: k, name: 'tool', preview: 'p', args: { k } }));
      s.frames.push(frame('tool.progress', e, { index: k, name: 'tool', note: 'n' }));
      s.frames.push(frame('tool.end', e, { index: k, name: 'tool', ok: true, duration: 0.1, output_preview: 'o' }));
      s.frames.push(frame('agent.busy', e, { reason: 'processing' }));
    }
    const finalText = text + '.';
    s.frames.push(
      frame('message.stop', e, {
        message_id: replyId,
        final_text: finalText,
        reasoning: 'r',
        model: 'm',
        tokens: 3,
        ts: 1_000 + i * 10 + 5,
      }),
    );
    s.frames.push(frame('typing', e, { on: false }));
    s.frames.push(frame('agent.idle', e, {}));
    s.finals.push(
      { message_id: userId, lane: t.lane, role: 'user', text: t.text },
      { message_id: replyId, lane: t.lane, role: 'assistant', text: finalText },
    );
  });
  return s;
});

/**
 * What a flaky link plus sync makes of a frame sequence: some frames arrive twice in a row, some
 * updates arrive again late (after their stop), and finished turns are replayed whole (as a sync
 * from an old cursor does) while the rest goes on. Coalescable frames (updates) may be dropped.
 * Delivery per lane keeps the order of the live stream (a TCP connection per device), so a
 * replayed turn only ever repeats what already arrived.
 */
function deliverFlakily(frames: ServerFrame[], noise: number[]): ServerFrame[] {
  const out: ServerFrame[] = [];
  let n = 0;
  const roll = (mod: number) => noise[n++ % noise.length]! % mod;
  for (const [i, f] of frames.entries()) {
    if (f.type === 'message.update' && roll(4) === 0) continue; // coalesced away
    if (f.type === 'message.start' && roll(5) === 0) {
      // Its stop first (a hostile or confused gateway): the start and updates after it must not reopen it.
      const id = (f.payload as { message_id: string }).message_id;
      const stop = frames.find(
        (g) => g.type === 'message.stop' && (g.payload as { message_id: string }).message_id === id,
      );
      if (stop) out.push(stop);
    }
    out.push(f);
    if (roll(6) === 0) out.push(f); // delivered again (reconnect)
    if (roll(9) === 0) {
      // A sync from an older cursor: everything from some earlier point again, in order.
      const from = roll(i + 1);
      out.push(...frames.slice(from, i + 1));
    }
  }
  // Stale updates arriving after their turn ended must not change the final text.
  for (const f of frames) if (f.type === 'message.update' && roll(5) === 0) out.push(f);
  return out;
}
