// Fuzzing the codec (issue 9): `npm run test:fuzz` feeds parseFrame at least 100,000 generated
// inputs (FUZZ_INPUTS=100000), `npm test` a few thousand. It never throws, and what it returns is
// either null or a frame whose envelope holds exactly what spec README §1 promises.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLIENT_FRAME_TYPES, SERVER_FRAME_TYPES } from './frames';
import { encodeFrame, parseClientFrame, parseFrame, parseServerFrame, type Frame } from './codec';

const INPUTS = Number(process.env.FUZZ_INPUTS) || 5_000;
const TYPES = [...SERVER_FRAME_TYPES, ...CLIENT_FRAME_TYPES];

const ENVELOPE_KEYS = new Set(['v', 'type', 'payload', 'id', 'chat_id', 'thread_id']);
const SERVER = new Set<string>(SERVER_FRAME_TYPES);
const CLIENT = new Set<string>(CLIENT_FRAME_TYPES);

/** Envelope promises: a non-empty string type, an object payload, an optional safe-integer id, optional string scopes. */
function problemWith(frame: Frame | null): string | undefined {
  if (frame === null) return undefined;
  if (typeof frame.type !== 'string' || frame.type === '') return 'type';
  if (frame.v !== 1) return 'v';
  if (typeof frame.payload !== 'object' || frame.payload === null || Array.isArray(frame.payload)) return 'payload';
  if ('id' in frame && !Number.isSafeInteger(frame.id)) return 'id';
  if ('chat_id' in frame && typeof frame.chat_id !== 'string') return 'chat_id';
  if ('thread_id' in frame && typeof frame.thread_id !== 'string') return 'thread_id';
  if (Object.keys(frame).some((k) => !ENVELOPE_KEYS.has(k))) return 'extra keys';
  return undefined;
}

/** Checked without expect() in the hot loop (100,000 runs); a failure names what broke. */
function parseAll(raw: string): boolean {
  const frame = parseFrame(raw);
  const problem = problemWith(frame);
  if (problem) throw new Error(`parseFrame returned a bad ${problem}: ${JSON.stringify(frame).slice(0, 200)}`);
  const server = parseServerFrame(raw);
  const client = parseClientFrame(raw);
  if (server && !SERVER.has(server.type)) throw new Error(`parseServerFrame let ${server.type} through`);
  if (client && !CLIENT.has(client.type)) throw new Error(`parseClientFrame let ${client.type} through`);
  if (frame === null && (server !== null || client !== null))
    throw new Error('a typed parse accepted what parseFrame refused');
  return true;
}

/** Valid-looking frames whose every envelope field may be of any type. */
const envelopes = fc.record(
  {
    v: fc.oneof(fc.constant(1), fc.anything()),
    type: fc.oneof(fc.constantFrom(...TYPES), fc.string(), fc.anything()),
    id: fc.oneof(fc.integer(), fc.double(), fc.constantFrom(2 ** 53, -0, true, '1', null), fc.anything()),
    chat_id: fc.oneof(fc.string(), fc.anything()),
    thread_id: fc.oneof(fc.string(), fc.anything()),
    payload: fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.anything()),
  },
  { requiredKeys: [] },
);

/** A JSON text cut, spliced or with a byte changed: what a torn or corrupted frame looks like. */
const mangled = fc
  .tuple(
    fc.jsonValue().map((v) => JSON.stringify({ v: 1, type: 'message', payload: { text: v } })),
    fc.nat(),
    fc.nat(),
    fc.string({ maxLength: 4 }),
  )
  .map(([text, a, b, insert]) => {
    const i = a % (text.length + 1);
    const j = Math.min(text.length, i + (b % 5));
    return text.slice(0, i) + insert + text.slice(j);
  });

const nested = fc
  .tuple(
    fc.integer({ min: 1, max: 3_000 }),
    fc.constantFrom('[', '{"a":', '{"type":"message","payload":'),
    fc.boolean(),
  )
  .map(([depth, open, close]) => {
    const closer = open === '[' ? ']' : '}';
    return open.repeat(depth) + (open === '[' ? '' : '1') + (close ? closer.repeat(depth) : '');
  });

const inputs: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
  { weight: 3, arbitrary: fc.json({ maxDepth: 4 }) },
  { weight: 4, arbitrary: envelopes.map((e) => JSON.stringify(e) ?? 'undefined') },
  { weight: 3, arbitrary: mangled },
  { weight: 1, arbitrary: nested },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      'null',
      'true',
      '0',
      '[]',
      '{}',
      '"type"',
      '{"type":""}',
      '{"type":null}',
      '{"type":"__proto__","payload":{"__proto__":{"x":1}}}',
      '{"type":"constructor"}',
      '\ufeff{"type":"ping"}',
      '{"type":"ping"}\u0000',
    ),
  },
);

describe('codec fuzzing', () => {
  it(
    `parseFrame never throws on ${INPUTS} generated inputs and keeps the envelope promises`,
    () => {
      fc.assert(fc.property(inputs, parseAll), { numRuns: INPUTS });
      // The deepest nesting JSON.parse takes, once (the generator keeps to shallower ones for speed).
      expect(parseAll('['.repeat(200_000) + ']'.repeat(200_000))).toBe(true);
      expect(parseAll('{"a":'.repeat(200_000) + '1' + '}'.repeat(200_000))).toBe(true);
    },
    Math.max(60_000, INPUTS * 5),
  );

  it(
    'a frame encoded and parsed again is the same frame',
    () => {
      const valid = fc.record(
        {
          type: fc.constantFrom(...TYPES),
          id: fc.integer({ min: 1, max: 2 ** 31 }),
          chat_id: fc.string(),
          thread_id: fc.string(),
          payload: fc.dictionary(
            fc.string().filter((k) => k !== '__proto__'),
            fc.jsonValue(),
          ),
        },
        { requiredKeys: ['type'] },
      );
      fc.assert(
        fc.property(valid, (f) => {
          const parsed = parseFrame(encodeFrame(f));
          expect(parsed).toEqual({ v: 1, payload: {}, ...JSON.parse(JSON.stringify(f)) });
        }),
        { numRuns: Math.ceil(INPUTS / 5) },
      );
    },
    Math.max(60_000, INPUTS * 2),
  );

  it('does not let a payload pollute prototypes', () => {
    const frame = parseFrame(
      '{"type":"message","payload":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}}',
    );
    expect(frame?.type).toBe('message');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(frame!.payload)).toBe(Object.prototype);
  });
});
