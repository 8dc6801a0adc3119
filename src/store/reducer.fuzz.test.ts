// Property tests of the reducer: idempotence (spec README §8: replayed frames are applied exactly
// as live ones) and invariants under any mix of valid and hostile frames.
// `FUZZ_RUNS=5000 npx vitest run src/store/reducer.fuzz.test.ts` for a longer search.
import 'fake-indexeddb/auto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SERVER_FRAME_TYPES, type ServerFrame } from '../protocol';
import type { IrisDB } from './db';
import { queueSend } from './models/outbox';
import { applyFrame, applyFrames } from './reducer';
import type { ChannelRow, LaneRow, MessageRow } from './schema';
import { dump, freshDb, rawRows } from '../testing/db';

const RUNS = Number(process.env.FUZZ_RUNS) || 200;
const GATEWAY = 'ws://gw';
/** fake-indexeddb is slow: allow generous time per run so FUZZ_RUNS can be raised. */
const TIMEOUT = Math.max(30_000, RUNS * 250);

const envelope = fc.constantFrom<Record<string, string>>(
  { chat_id: 'a' },
  { chat_id: 'b' },
  { chat_id: 'a', thread_id: 't' },
  { chat_id: 't' },
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
    chat_id: fc.constantFrom('a', 'b', 't'),
    name: fc.constantFrom('A', 'B', 'T'),
    kind: fc.constantFrom('default', 'channel', 'thread'),
    parent_chat_id: fc.constantFrom('a', 'b'),
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
  framed('channel.renamed', fc.oneof(channelEntry, fc.record({ chat_id: fc.constantFrom('a', 't'), name: text }))),
  framed('channel.deleted', fc.record({ chat_id: fc.constantFrom('a', 'b', 't') })),
  framed('sync.done', fc.record({ cursor: fc.nat(20) })),
  framed(
    'commands.catalog',
    fc.record({ commands: fc.array(fc.record({ name: text, description: text }), { maxLength: 3 }) }),
  ),
  framed('status', fc.record({ state: fc.constantFrom('online', 'degraded') })),
);

/** Frames a broken or hostile gateway could send: known types with any payload, odd envelopes. */
const hostileFrame: fc.Arbitrary<ServerFrame> = fc
  .record({
    type: fc.oneof(fc.constantFrom(...SERVER_FRAME_TYPES), fc.string()),
    chat_id: fc.oneof(fc.constantFrom('a', 't', ''), fc.anything()),
    thread_id: fc.option(fc.oneof(fc.constant('t'), fc.anything()), { nil: undefined }),
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
        fc.oneof(fc.anything(), messageId, fc.constantFrom('local:c1', 'c1', 'user', 'a')),
      ),
    ),
  })
  .map((f) => ({ v: 1, ...f }) as unknown as ServerFrame);

async function seeded(): Promise<IrisDB> {
  const db = freshDb();
  await queueSend(db, { client_id: 'c1', lane: 'a', chat_id: 'a', text: 'hello', now: 5 });
  await queueSend(db, { client_id: 'c2', lane: 't', chat_id: 'a', thread_id: 't', text: 'x', now: 6 });
  return db;
}

const at = (i: number) => 1_000 + i * 10;

async function expectInvariants(db: IrisDB): Promise<void> {
  // Rows as stored: the read-time repair would make every check below pass.
  const messages = await rawRows<MessageRow>(db, 'messages');
  const clientIds = messages.map((m) => m.client_id).filter((c) => c !== undefined);
  expect(new Set(clientIds).size, 'a client_id is stored twice').toBe(clientIds.length);
  for (const m of messages) {
    expect(typeof m.lane === 'string' && m.lane.length > 0, `message ${m.message_id} has no lane`).toBe(true);
    expect(Number.isFinite(m.ts)).toBe(true);
    expect(['streaming', 'final', 'pending', 'sent', 'read', 'failed']).toContain(m.status);
    expect(typeof m.text).toBe('string');
    if (m.status === 'streaming') expect(m.turn).toBeTypeOf('string');
    if (m.message_id.startsWith('local:')) expect(m.status === 'pending' || m.status === 'failed').toBe(true);
    else expect(m.status === 'pending' || m.status === 'failed').toBe(false);
  }
  for (const table of ['activity', 'pickers', 'media']) {
    for (const row of await rawRows<{ lane: string }>(db, table))
      expect(row.lane, `${table} row without lane`).toMatch(/./);
  }
  for (const lane of await rawRows<LaneRow>(db, 'lanes')) {
    if (lane.turn !== undefined) expect(lane.turn).toBe(`${lane.lane}#${lane.turnSeq}`);
    expect(lane.readTs).toBeGreaterThanOrEqual(0);
  }
  for (const c of await rawRows<ChannelRow>(db, 'channels')) expect(c.chat_id).toMatch(/./);
}

describe('reducer properties', () => {
  it(
    'applying each frame twice in a row leaves the same DB as applying it once',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.oneof({ weight: 5, arbitrary: validFrame }, { weight: 1, arbitrary: hostileFrame }), {
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
    TIMEOUT,
  );

  it(
    'any mix of valid and hostile frames never throws and keeps the invariants',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.oneof(validFrame, hostileFrame), { maxLength: 30 }), async (frames) => {
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
    TIMEOUT,
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
    TIMEOUT,
  );
});
