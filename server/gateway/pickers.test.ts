import { describe, expect, it } from 'vitest';
import type { AnyServerFrame, TestClient } from './testclient';
import { useGateway } from './testing';

const fixture = useGateway({ token: 'picker-token', streamDelayMs: 0, recordPushes: true });
const { pushed } = fixture;

/** A device that can be woken by ntfy (so pushes name it). */
const device = (id: string) => fixture.device(id, { caps: { push: 'ntfy' }, extra: { ntfy_topic: 't-' + id } });

/** Send a command and wait for its picker frame (after agent.busy waiting_input). */
async function ask(
  c: TestClient,
  command: string,
  pickerType: string,
): Promise<{ picker: AnyServerFrame; from: number }> {
  const from = c.mark();
  await c.request('message.send', { text: command, client_id: 'c' + Math.random() }, { chat_id: 'web:default' });
  const picker = await c.waitType(pickerType, { from });
  const busy = c.ofType('agent.busy', from);
  expect(busy.at(-1)!.payload.reason).toBe('waiting_input');
  expect(c.frames.indexOf(busy.at(-1)!)).toBeLessThan(c.frames.indexOf(picker));
  expect(typeof picker.payload.picker_id).toBe('string');
  expect(picker.chat_id).toBe('web:default');
  return { picker, from };
}

async function answer(
  c: TestClient,
  pickerId: string,
  value: string,
): Promise<{ ack: AnyServerFrame; reply: AnyServerFrame }> {
  const from = c.mark();
  const ack = await c.request('picker.select', { picker_id: pickerId, value });
  const reply = await c.waitFor((f) => f.type === 'message' && f.payload.role === 'assistant', { from });
  await c.waitType('agent.idle', { from });
  return { ack, reply };
}

describe('pickers', () => {
  it('/approve: approval picker, approval notification, pushed even to a live device; answers per value', async () => {
    const c = await device('dev-a');
    const { picker, from } = await ask(c, '/approve rm -rf build', 'picker.approval');
    expect(picker.payload).toMatchObject({ command: 'rm -rf build' });
    const note = await c.waitType('notification', { from });
    expect(note.payload).toMatchObject({ kind: 'approval', title: 'Approval needed' });
    await new Promise((r) => setImmediate(r));
    expect(pushed).toHaveLength(1);
    expect(pushed[0]).toMatchObject({
      target: { device_id: 'dev-a', mode: 'ntfy' },
      payload: { kind: 'approval', picker_id: picker.payload.picker_id, lane: 'web:default' },
    });
    const { ack, reply } = await answer(c, picker.payload.picker_id, 'once');
    expect(ack).toMatchObject({ type: 'agent.busy', payload: { reason: 'processing' } });
    expect(reply.payload.text).toBe('Approved once: `rm -rf build`');
    const again = await c.request('picker.select', { picker_id: picker.payload.picker_id, value: 'once' });
    expect(again.payload.code).toBe('not_found');
  });

  it.each([
    ['session', 'Approved for this session: `rm -rf build`'],
    ['always', 'Always approved: `rm -rf build`'],
    ['deny', 'Denied: `rm -rf build`'],
  ])('/approve answered %s', async (value, text) => {
    const c = await device('dev-a');
    const { picker } = await ask(c, '/approve', 'picker.approval');
    expect((await answer(c, picker.payload.picker_id, value)).reply.payload.text).toBe(text);
  });

  it('/model: picker.model with providers; "<provider>:<model>" switches the model of later replies', async () => {
    const c = await device('dev-a');
    const { picker } = await ask(c, '/model', 'picker.model');
    expect(picker.payload).toMatchObject({ current_provider: 'demo', current_model: 'iris-demo-1' });
    expect(picker.payload.providers[0].models.length).toBeGreaterThan(1);
    const bad = await c.request('picker.select', { picker_id: picker.payload.picker_id, value: 'nope:nothing' });
    expect(bad.payload.code).toBe('unsupported');
    const other = await device('dev-b');
    const from = other.mark();
    const { reply } = await answer(c, picker.payload.picker_id, 'demo:iris-demo-2');
    expect(reply.payload.text).toContain('`demo:iris-demo-2`');
    // Every device hears of the new model at once (their Settings name it), not only at their next hello.
    for (const d of [c, other]) {
      const status = await d.waitFor((f) => f.type === 'status' && f.payload.session?.agent?.model === 'iris-demo-2', {
        from: d === c ? 0 : from,
        what: 'a status naming the new model',
      });
      expect(status.payload.state).toBe('online');
    }
    const { stop } = await c.chat('after', { chat_id: 'web:default' });
    expect(stop!.payload.model).toBe('iris-demo-2');
  });

  it('/choose: picker.choice with an is_current choice', async () => {
    const c = await device('dev-a');
    const { picker } = await ask(c, '/choose', 'picker.choice');
    expect(picker.payload.choices.find((ch: { is_current?: boolean }) => ch.is_current).value).toBe('medium');
    expect((await answer(c, picker.payload.picker_id, 'high')).reply.payload.text).toBe(
      'Reasoning effort set to **High**.',
    );
  });

  it('/clarify: picker.clarify and a clarify notification; a typed answer is accepted', async () => {
    const c = await device('dev-a');
    const { picker, from } = await ask(c, '/clarify', 'picker.clarify');
    expect(picker.payload.question).toBe('Which format should the summary use?');
    expect((await c.waitType('notification', { from })).payload.kind).toBe('clarify');
    expect((await answer(c, picker.payload.picker_id, 'a haiku please')).reply.payload.text).toBe(
      'Thanks — you answered: **a haiku please**.',
    );
  });

  it('/confirm: picker.confirm answered yes or no', async () => {
    const c = await device('dev-a');
    const p1 = (await ask(c, '/confirm', 'picker.confirm')).picker;
    expect(p1.payload.title).toBe('Archive old messages?');
    expect((await answer(c, p1.payload.picker_id, 'yes')).reply.payload.text).toBe('Confirmed: Archive old messages?');
    const p2 = (await ask(c, '/confirm', 'picker.confirm')).picker;
    expect((await answer(c, p2.payload.picker_id, 'no')).reply.payload.text).toBe('Cancelled: Archive old messages?');
  });

  it('a picker answered on one device is closed on the other by agent.busy/agent.idle; the stale answer gets an error', async () => {
    const a = await device('dev-a');
    const b = await device('dev-b');
    const { picker } = await ask(a, '/confirm', 'picker.confirm');
    await b.waitFor((f) => f.type === 'picker.confirm' && f.payload.picker_id === picker.payload.picker_id);
    const fromB = b.mark();
    await answer(a, picker.payload.picker_id, 'yes');
    const busy = await b.waitType('agent.busy', { from: fromB });
    expect(busy.id).toBeUndefined();
    // The `answered` extension: the other device learns which answer the question took.
    expect(busy.payload).toEqual({
      reason: 'processing',
      answered: { picker_id: picker.payload.picker_id, value: 'yes' },
    });
    await b.waitType('agent.idle', { from: fromB });
    expect((await b.request('picker.select', { picker_id: picker.payload.picker_id, value: 'no' })).payload.code).toBe(
      'not_found',
    );
    expect(fixture.gw.gateway.store.messages('web:default').filter((m) => m.text.startsWith('Confirmed')).length).toBe(
      1,
    );
  });

  it('a device paired while a question waits gets it in its outbox and can answer it; one paired after, not', async () => {
    const a = await device('dev-a');
    const { picker } = await ask(a, '/confirm', 'picker.confirm');
    const b = await device('dev-late');
    const restated = await b.waitFor((f) => f.type === 'picker.confirm', { what: 'the waiting question' });
    expect(restated.payload).toEqual(picker.payload);
    expect(restated.chat_id).toBe('web:default');
    expect(typeof restated.cursor).toBe('number'); // outboxed: a sync brings it again until acknowledged
    const busy = b.ofType('agent.busy');
    expect(busy.at(-1)!.payload.reason).toBe('waiting_input');
    // Its own hello again (a reconnect) does not restate it a second time.
    await b.close();
    const again = await device('dev-late');
    await again.request('sync', { cursor: restated.cursor });
    expect(again.ofType('picker.confirm')).toHaveLength(0);
    const { reply } = await answer(again, picker.payload.picker_id, 'yes');
    expect(reply.payload.text).toBe('Confirmed: Archive old messages?');
    const after = await device('dev-later');
    await after.request('sync', { cursor: 0 });
    expect(after.ofType('picker.confirm')).toHaveLength(0);
  });

  it('a new message in the lane moves the agent on: the waiting question is closed everywhere and dropped', async () => {
    const a = await device('dev-a');
    const { picker } = await ask(a, '/clarify', 'picker.clarify');
    const from = a.mark();
    await a.request('message.send', { text: 'never mind, hello', client_id: 'c-next' }, { chat_id: 'web:default' });
    // The frame that closes an open picker on every device (§11) comes before the next reply.
    const busy = await a.waitFor((f) => f.type === 'agent.busy' && f.payload.reason !== 'waiting_input', { from });
    const reply = await a.waitFor((f) => f.type === 'message.start', { from });
    expect(a.frames.indexOf(busy)).toBeLessThan(a.frames.indexOf(reply));
    await a.waitType('agent.idle', { from });
    expect(
      (await a.request('picker.select', { picker_id: picker.payload.picker_id, value: 'Prose' })).payload.code,
    ).toBe('not_found');
    const late = await device('dev-late');
    await late.request('sync', { cursor: 0 });
    expect(late.ofType('picker.clarify')).toHaveLength(0);
  });

  it('unknown picker ids are not_found', async () => {
    const c = await device('dev-a');
    expect((await c.request('picker.select', { picker_id: 'pick_nope', value: 'yes' })).payload.code).toBe('not_found');
  });
});

describe('commands', () => {
  it('commands.catalog lists every demo command with description, args_hint and category', async () => {
    const c = await device('dev-a');
    const cat = await c.request('commands.catalog');
    const names = cat.payload.commands.map((x: { name: string }) => x.name);
    for (const n of ['model', 'choose', 'clarify', 'approve', 'confirm', 'thread', 'remind', 'image', 'help'])
      expect(names).toContain(n);
    for (const cmd of cat.payload.commands) {
      expect(typeof cmd.description).toBe('string');
      expect(typeof cmd.args_hint).toBe('string');
      expect(typeof cmd.category).toBe('string');
    }
  });

  it('commands.complete matches by prefix, with or without the slash', async () => {
    const c = await device('dev-a');
    const r = await c.request('commands.complete', { prefix: '/c' });
    expect(r.payload.prefix).toBe('/c');
    expect(r.payload.matches.map((m: { name: string }) => m.name).sort()).toEqual(['choose', 'clarify', 'confirm']);
    const r2 = await c.request('commands.complete', { prefix: 're' });
    expect(r2.payload.matches.map((m: { name: string }) => m.name)).toEqual(['remind']);
    expect((await c.request('commands.complete', { prefix: '/zzz' })).payload.matches).toEqual([]);
  });

  it('/help lists the commands in a streamed reply', async () => {
    const c = await device('dev-a');
    const { stop } = await c.chat('/help', { chat_id: 'web:default' });
    expect(stop!.payload.final_text).toContain('`/remind <seconds> <text>`');
  });
});
