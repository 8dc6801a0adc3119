// Every frame the gateway emits in a scripted session that touches every server frame type must
// validate against ../shared/spec/frames.schema.json (envelope + that type's payload properties).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { useGateway } from './testing';

interface Spec {
  envelope: { properties: Record<string, unknown>; required: string[] };
  frame_types: { server_to_app: Record<string, { payload?: Record<string, unknown> }> };
  definitions: Record<string, unknown>;
}

const spec: Spec = JSON.parse(readFileSync(resolve(process.cwd(), '../shared/spec/frames.schema.json'), 'utf8'));
// Documented extension (spec/README.md §13): the gateway can wake devices by Web Push.
const pushEnum = (spec.frame_types.server_to_app['hello.ack'].payload as any).server_caps.properties.push;
pushEnum.enum = [...pushEnum.enum, 'webpush'];

const ajv = new Ajv({ strict: false, allErrors: true });
const validators = new Map<string, ValidateFunction>();
function validatorFor(type: string): ValidateFunction | undefined {
  const def = spec.frame_types.server_to_app[type];
  if (!def) return undefined;
  let v = validators.get(type);
  if (!v) {
    const payload =
      def.payload && '$ref' in def.payload ? def.payload : { type: 'object', properties: def.payload ?? {} };
    v = ajv.compile({
      type: 'object',
      required: [...spec.envelope.required, 'payload'],
      properties: { ...spec.envelope.properties, type: { const: type }, payload },
      definitions: spec.definitions,
    });
    validators.set(type, v);
  }
  return v;
}

// One gateway for the file: the session below runs once, the tests read what it recorded.
const fixture = useGateway({ token: 'schema-token', streamDelayMs: 0, per: 'file', recordPushes: true });
const raw: string[] = [];

beforeAll(async () => {
  const a = await fixture.device('dev-a', {
    caps: { push: 'webpush' },
    extra: { webpush: { endpoint: 'https://p.example/x', keys: { p256dh: 'p', auth: 'a' } } },
  });
  const b = await fixture.device('dev-b');
  const L = { chat_id: 'web:default' };
  const r = await a.chat('hello **schema**', L);
  a.send('read.receipt', { chat_id: 'web:default', message_id: r.stop!.payload.message_id });
  await a.chat('/image', L);
  for (const [cmd, type, value] of [
    ['/model', 'picker.model', 'local:echo-small'],
    ['/choose', 'picker.choice', 'low'],
    ['/clarify', 'picker.clarify', 'prose'],
    ['/approve ls', 'picker.approval', 'deny'],
    ['/confirm', 'picker.confirm', 'yes'],
  ] as const) {
    const from = a.mark();
    await a.request('message.send', { text: cmd, client_id: cmd }, L);
    const picker = await a.waitType(type, { from });
    await a.request('picker.select', { picker_id: picker.payload.picker_id, value });
    await a.waitType('agent.idle', { from: a.mark() - 1 });
  }
  const remindFrom = a.mark();
  await a.request('message.send', { text: '/remind 0 stand up', client_id: 'rem' }, L);
  await a.waitFor((f) => f.type === 'message' && f.payload.role === 'cron', { from: remindFrom });
  await a.chat('/thread a schema thread', { chat_id: 'web:demo' });
  await a.waitType('channel.renamed');
  const ch = await a.request('channel.create', { name: 'S', kind: 'channel' });
  await a.request('channel.rename', { name: 'S2' }, { chat_id: ch.payload.chat_id });
  await a.request('channel.icon', { icon: '⭐', color: '#abc' }, { chat_id: ch.payload.chat_id });
  await a.request('channel.favorite', { favorite: true }, { chat_id: ch.payload.chat_id });
  await a.request('channel.set_default', {}, { chat_id: ch.payload.chat_id });
  await a.request('channel.set_default', {}, { chat_id: 'web:default' });
  await a.request('channel.delete', {}, { chat_id: ch.payload.chat_id });
  await a.request('channel.list');
  await a.request('history', { limit: 5 }, L);
  await a.request('search', { query: 'schema', scope: 'all' });
  await a.request('commands.catalog');
  await a.request('commands.complete', { prefix: '/m' });
  await a.request('ping', { ts: 1 });
  await a.request('nope.type');
  const bytes = Buffer.from('schema media');
  await a.upload(bytes, { ref: 'sref', kind: 'document', mime: 'text/plain', filename: 's.txt' });
  await a.request('media.pull', { media_id: fixture.gw.gateway.store.media.byRef('sref')!.media_id });
  await a.request('message.delete', { message_ids: [r.echo.payload.message_id] });
  const longFrom = a.mark();
  await a.request('message.send', { text: '/long', client_id: 'long' }, L);
  await a.waitType('message.update', { from: longFrom });
  await a.request('agent.steer', { text: 'shorter' }, L);
  await a.request('agent.stop', {}, L);
  await a.request('sync', { cursor: 0 });
  await b.request('sync', { cursor: 0 });
  raw.push(...a.raw, ...b.raw);
  await a.close();
  await b.close();
});

describe('frames.schema.json', () => {
  it('the session covers every server frame type the schema describes', () => {
    const seen = new Set(raw.map((t) => JSON.parse(t).type));
    const missing = Object.keys(spec.frame_types.server_to_app).filter((t) => !seen.has(t));
    expect(missing).toEqual([]);
  });

  it('every emitted frame validates against the envelope and its payload schema', () => {
    const failures: string[] = [];
    let checked = 0;
    for (const text of raw) {
      const frame = JSON.parse(text);
      const validate = validatorFor(frame.type);
      if (!validate) continue; // a type newer than the schema (protocol.py wins), e.g. message.deleted
      checked++;
      if (!validate(frame)) failures.push(`${frame.type}: ${ajv.errorsText(validate.errors)} in ${text.slice(0, 300)}`);
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });

  it('the validators reject frames that break the schema', () => {
    expect(validatorFor('error')!({ v: 1, type: 'error', payload: { code: 'bogus', message: 'x' } })).toBe(false);
    expect(
      validatorFor('message')!({ v: 1, type: 'message', payload: { message_id: 1, role: 'user', text: 'x' } }),
    ).toBe(false);
    expect(
      validatorFor('channel.created')!({
        v: 1,
        type: 'channel.created',
        payload: { chat_id: 'c', name: 'n', kind: 'room' },
      }),
    ).toBe(false);
    expect(validatorFor('pong')!({ v: 2, type: 'pong', payload: {} })).toBe(false);
  });

  it('only types from protocol.py are outside the schema', () => {
    const extra = new Set(raw.map((t) => JSON.parse(t).type).filter((t) => !spec.frame_types.server_to_app[t]));
    expect([...extra].sort()).toEqual(['media.upload.ack', 'message.deleted', 'read.receipt']);
  });
});
