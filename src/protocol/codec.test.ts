import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeFrame, parseClientFrame, parseFrame, parseServerFrame, parseServerMessage } from './codec';

describe('parseFrame (Frame.from_json rules)', () => {
  it('parses a valid frame', () => {
    const f = parseFrame('{"v":1,"id":3,"type":"message","chat_id":"a","thread_id":"t","payload":{"text":"hi"}}');
    expect(f).toEqual({ v: 1, id: 3, type: 'message', chat_id: 'a', thread_id: 't', payload: { text: 'hi' } });
  });

  it.each([
    ['bad JSON', '{"type":'],
    ['not an object', '[1,2]'],
    ['a string', '"message"'],
    ['null', 'null'],
    ['missing type', '{"payload":{}}'],
    ['empty type', '{"type":""}'],
    ['non-string type', '{"type":5}'],
  ])('returns null for %s', (_name, raw) => {
    expect(parseFrame(raw)).toBeNull();
  });

  it('turns a non-object payload into {}', () => {
    expect(parseFrame('{"type":"ping","payload":[1]}')?.payload).toEqual({});
    expect(parseFrame('{"type":"ping","payload":"x"}')?.payload).toEqual({});
    expect(parseFrame('{"type":"ping"}')?.payload).toEqual({});
  });

  it('drops a non-integer or boolean id and non-string scopes', () => {
    const f = parseFrame('{"type":"ping","id":true,"chat_id":1,"thread_id":null}');
    expect(f).toEqual({ v: 1, type: 'ping', payload: {} });
    expect(parseFrame('{"type":"ping","id":1.5}')?.id).toBeUndefined();
    expect(parseFrame('{"type":"ping","id":"4"}')?.id).toBeUndefined();
  });

  it('keeps a live cursor only when it is a non-negative integer (spec README §16)', () => {
    expect(parseFrame('{"type":"message","cursor":7,"payload":{}}')?.cursor).toBe(7);
    expect(parseFrame('{"type":"message","cursor":0,"payload":{}}')?.cursor).toBe(0);
    for (const bad of ['-1', '1.5', '"7"', 'true', 'null', '1e300'])
      expect(parseFrame(`{"type":"message","cursor":${bad},"payload":{}}`)?.cursor).toBeUndefined();
    expect(encodeFrame({ type: 'message', chat_id: 'a', cursor: 9, payload: {} })).toBe(
      '{"v":1,"type":"message","chat_id":"a","cursor":9,"payload":{}}',
    );
  });

  it('parses typed frames only for known directions', () => {
    expect(parseServerFrame('{"type":"hello.ack","payload":{}}')?.type).toBe('hello.ack');
    expect(parseServerFrame('{"type":"hello","payload":{}}')).toBeNull();
    expect(parseServerFrame('{"type":"future.thing","payload":{}}')).toBeNull();
    expect(parseClientFrame('{"type":"message.send","payload":{"text":"x"}}')?.type).toBe('message.send');
    expect(parseClientFrame('{"type":"hello.ack","payload":{}}')).toBeNull();
  });

  it('never throws on any string (fuzzed)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.jsonValue().map((v) => JSON.stringify(v)),
        ),
        (raw) => {
          const f = parseFrame(raw);
          if (f !== null) {
            expect(typeof f.type).toBe('string');
            expect(f.type.length).toBeGreaterThan(0);
            expect(typeof f.payload).toBe('object');
          }
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 2000) },
    );
  });

  it('keeps envelope fields of arbitrary objects within their types (fuzzed)', () => {
    fc.assert(
      fc.property(
        fc.record(
          {
            type: fc.oneof(fc.string(), fc.integer()),
            id: fc.jsonValue(),
            chat_id: fc.jsonValue(),
            payload: fc.jsonValue(),
          },
          { requiredKeys: [] },
        ),
        (obj) => {
          const f = parseFrame(JSON.stringify(obj));
          if (f === null) return;
          expect(f.id === undefined || Number.isInteger(f.id)).toBe(true);
          expect(f.chat_id === undefined || typeof f.chat_id === 'string').toBe(true);
          expect(Array.isArray(f.payload)).toBe(false);
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 2000) },
    );
  });
});

describe('parseServerFrame, message.update', () => {
  const update = (payload: object, scope: { chat_id?: string; thread_id?: string } = { chat_id: 'c' }) =>
    encodeFrame({ type: 'message.update', ...scope, payload });

  it('gives what a whole parse gives, in the form Frame.to_dict writes and in any other', () => {
    const cases = [
      update({ message_id: 'm1', text: 'He said "hi"\n\\ é 😀' }),
      update({ message_id: 'm1', text: 'so far', reasoning: 'thinking' }, { chat_id: 'c', thread_id: 't' }),
      update({ message_id: 'm1', text: '' }, {}),
      '{"type":"message.update","payload":{"text":"x","message_id":"m1"},"chat_id":"c"}',
      '{"v": 1, "type": "message.update", "chat_id": "c", "payload": {"message_id": "m1", "text": "x"}}',
    ];
    for (const raw of cases) {
      const f = parseServerFrame(raw);
      const whole = parseFrame(raw)!;
      expect(f?.type).toBe('message.update');
      expect({ ...f, payload: { ...f!.payload } }).toEqual(whole);
    }
  });

  it('reads the message and its lane from the start of the frame, the text only when asked', () => {
    const f = parseServerFrame(update({ message_id: 'm1', text: 'hello' }, { chat_id: 'c', thread_id: 't' }));
    expect(f).toMatchObject({ type: 'message.update', chat_id: 'c', thread_id: 't', payload: { message_id: 'm1' } });
    expect(f!.type === 'message.update' && f!.payload.text).toBe('hello');
  });

  it('has no text when the frame is broken or its whole parse disagrees with its start', () => {
    const head = '{"v":1,"type":"message.update","chat_id":"c","payload":{"message_id":"m1","text":"';
    const broken = [
      `${head}cut off`,
      `${head}x","message_id":"m2"}}`, // a repeated key: JSON.parse keeps the last
      `${head}x"},"chat_id":"d"}`,
      `${head}x"},"type":"message.stop"}`,
      `${head}x","text":5}}`,
    ];
    for (const raw of broken) {
      const f = parseServerFrame(raw);
      expect(f?.type).toBe('message.update');
      expect(f!.type === 'message.update' && f!.payload.text).toBeUndefined();
    }
  });
});

describe("parseServerMessage (one frame, or a replay batch: this project's extension)", () => {
  it('gives the frames of a batch in order, each by the rules of a frame alone; unknown and malformed ones left out', () => {
    // Keys in any order: only the whole parse decides.
    const batch = JSON.stringify({
      payload: {
        frames: [
          { v: 1, type: 'message', chat_id: 'a', cursor: 7, payload: { message_id: 'm1', text: 'one' } },
          'not a frame',
          { v: 1, type: 'turn.plan', payload: {} },
          { v: 1, type: 'typing', chat_id: 'a', id: true, payload: { on: true } },
          { type: '' },
          { v: 1, type: 'message', chat_id: 'a', cursor: 8, payload: 'x' },
        ],
      },
      v: 1,
      type: 'frames',
    });
    expect(parseServerMessage(batch).batch).toBe(true);
    expect(parseServerMessage(batch).frames).toEqual([
      { v: 1, type: 'message', chat_id: 'a', cursor: 7, payload: { message_id: 'm1', text: 'one' } },
      { v: 1, type: 'typing', chat_id: 'a', payload: { on: true } },
      { v: 1, type: 'message', chat_id: 'a', cursor: 8, payload: {} },
    ]);
  });

  it('is one frame, or none, for any other message; an empty batch without a list', () => {
    expect(parseServerMessage('{"v":1,"type":"typing","payload":{"on":true}}')).toEqual({
      frames: [{ v: 1, type: 'typing', payload: { on: true } }],
      batch: false,
    });
    expect(parseServerMessage('{"v":1,"type":"turn.plan","payload":{}}')).toEqual({ frames: [], batch: false });
    expect(parseServerMessage('{"v":1,"type":"frames"')).toEqual({ frames: [], batch: false });
    expect(parseServerMessage('{"v":1,"type":"frames","payload":{"frames":{}}}')).toEqual({ frames: [], batch: true });
  });
});

describe('encodeFrame (Frame.to_dict rules)', () => {
  it('omits absent id/chat_id/thread_id and always writes v and payload', () => {
    expect(encodeFrame({ type: 'agent.idle' })).toBe('{"v":1,"type":"agent.idle","payload":{}}');
    expect(encodeFrame({ type: 'history', id: 2, chat_id: 'c', payload: { limit: 5 } })).toBe(
      '{"v":1,"type":"history","id":2,"chat_id":"c","payload":{"limit":5}}',
    );
  });

  it('round-trips through parseFrame', () => {
    fc.assert(
      fc.property(
        fc.record({
          type: fc.string({ minLength: 1 }),
          id: fc.option(fc.nat(), { nil: undefined }),
          chat_id: fc.option(fc.string(), { nil: undefined }),
          thread_id: fc.option(fc.string(), { nil: undefined }),
          payload: fc.dictionary(fc.string(), fc.jsonValue()),
        }),
        (frame) => {
          const parsed = parseFrame(encodeFrame(frame));
          expect(parsed?.type).toBe(frame.type);
          expect(parsed?.id).toBe(frame.id);
          expect(parsed?.chat_id).toBe(frame.chat_id);
          expect(parsed?.thread_id).toBe(frame.thread_id);
        },
      ),
    );
  });
});
