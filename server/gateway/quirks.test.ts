// Each quirk changes the wire exactly as its name says, and nothing is quirky without it.
import { describe, expect, it } from 'vitest';
import { UNKNOWN_BUSY_REASON, UNKNOWN_FRAME_TYPE, UNKNOWN_NOTIFICATION_KIND, type GatewayQuirks } from './quirks';
import type { TestClient } from './testclient';
import { useGateway } from './testing';

// Each test starts its gateway with the quirks it tests.
const fixture = useGateway({ token: 'quirk-token', streamDelayMs: 0, startBeforeEach: false });
const { device } = fixture;

async function start(quirks?: GatewayQuirks): Promise<TestClient> {
  await fixture.restart({ quirks });
  return device('dev-a');
}

describe('gateway quirks', () => {
  it('hello.ack: without channels, with another push capability; a turn followed by an unknown notification kind', async () => {
    const plain = await start();
    expect(plain.ofType('hello.ack')[0].payload.channels).toBeInstanceOf(Array);
    const c = await start({ helloAckWithoutChannels: true, push: 'fcm', unknownFrames: true });
    const ack = c.ofType('hello.ack')[0];
    expect(ack.payload).not.toHaveProperty('channels');
    expect((ack.payload.server_caps as { push: string }).push).toBe('fcm');
    await c.chat('hello', { chat_id: 'web:default' });
    const note = await c.waitType('notification');
    expect(note.payload.kind).toBe(UNKNOWN_NOTIFICATION_KIND);
  });

  it('threadOwnChatId: a thread reply carries only the thread’s chat_id', async () => {
    const c = await start({ threadOwnChatId: true });
    const { echo, stop } = await c.chat('/thread about quirks', { chat_id: 'web:default' });
    expect(echo.thread_id).toBeUndefined();
    expect(echo.chat_id).toMatch(/^web:thr_|^web:/);
    expect(echo.chat_id).not.toBe('web:default');
    expect(stop?.thread_id).toBeUndefined();
    expect(stop?.chat_id).toBe(echo.chat_id);
  });

  it('noClientId: no client_id in the echo, and a repeat is stored twice', async () => {
    const c = await start({ noClientId: true });
    const first = await c.request('message.send', { text: 'twice', client_id: 'cid-1' }, { chat_id: 'web:default' });
    const second = await c.request('message.send', { text: 'twice', client_id: 'cid-1' }, { chat_id: 'web:default' });
    expect(first.payload).not.toHaveProperty('client_id');
    expect(second.payload.message_id).not.toBe(first.payload.message_id);
    expect(fixture.gw.gateway.store.messages('web:default').filter((m) => m.text === 'twice')).toHaveLength(2);
  });

  it('noReadReceipts, renamedNameOnly, historyWithoutOldest, mediaOfferWithoutMessageId, unknown frames while working', async () => {
    const c = await start({
      noReadReceipts: true,
      renamedNameOnly: true,
      historyWithoutOldest: true,
      mediaOfferWithoutMessageId: true,
      unknownFrames: true,
    });
    const { from } = await c.chat('/image', { chat_id: 'web:default' });
    const offer = await c.waitType('media.offer', { from });
    expect(offer.payload).not.toHaveProperty('message_id');
    expect(c.ofType('read.receipt', from)).toHaveLength(0);
    // The test client drops frame types it does not know, as the app does: read the raw text.
    expect(c.raw.filter((t) => JSON.parse(t).type === UNKNOWN_FRAME_TYPE)).toHaveLength(1);
    expect(c.ofType('agent.busy', from).some((f) => f.payload.reason === UNKNOWN_BUSY_REASON)).toBe(true);
    const renamed = await c.request('channel.favorite', { favorite: true }, { chat_id: 'web:demo' });
    expect(renamed.payload).toEqual({ chat_id: 'web:demo', name: 'Demo' });
    const page = await c.request('history', { limit: 1 }, { chat_id: 'web:default' });
    expect(page.payload.messages).toHaveLength(1);
    expect(page.payload).not.toHaveProperty('oldest_message_id');
  });

  it('errorsWithoutIds: an error answers without the request id; other answers keep theirs', async () => {
    const c = await start({ errorsWithoutIds: true });
    const from = c.mark();
    c.send('message.send', { text: 'to nowhere', client_id: 'cid-x' }, { id: c.takeId(), chat_id: 'web:nowhere' });
    const error = await c.waitType('error', { from });
    expect(error).not.toHaveProperty('id');
    expect(error.payload.code).toBe('not_found');
    const sent = await c.request('message.send', { text: 'here', client_id: 'cid-y' }, { chat_id: 'web:default' });
    expect(sent.type).toBe('message');
  });

  it('noSync: sync is refused as an unknown type, without its id, and nothing is replayed', async () => {
    const c = await start({ noSync: true });
    const from = c.mark();
    c.send('sync', { cursor: 0 }, { id: c.takeId() });
    const error = await c.waitType('error', { from });
    expect(error).not.toHaveProperty('id');
    expect(error.payload.code).toBe('unsupported');
    expect(c.ofType('sync.done', from)).toHaveLength(0);
  });

  it('mediaIdIsRef: the echo names the upload by the app’s media_ref, and it can be pulled by it', async () => {
    const c = await start({ mediaIdIsRef: true });
    const bytes = Buffer.from('not really a png');
    await c.upload(bytes, { ref: 'ref-own', kind: 'document', mime: 'text/plain', filename: 'a.txt' });
    const echo = await c.request('message.send', { text: 'file', media_refs: ['ref-own'] }, { chat_id: 'web:default' });
    expect((echo.payload.media as { media_id: string }[])[0].media_id).toBe('ref-own');
    const before = c.binaries.length;
    const end = await c.request('media.pull', { media_id: 'ref-own' });
    expect(end.payload.ok).toBe(true);
    expect(Buffer.concat(c.binaries.slice(before)).equals(bytes)).toBe(true);
  });

  it('stalePickers: only the answering device hears that the picker is closed', async () => {
    const a = await start({ stalePickers: true });
    const b = await device('dev-b');
    const fromB = b.mark();
    const from = a.mark();
    await a.request('message.send', { text: '/confirm' }, { chat_id: 'web:default' });
    const picker = await a.waitType('picker.confirm', { from });
    await b.waitType('picker.confirm', { from: fromB });
    const answered = b.mark();
    await a.request('picker.select', { picker_id: picker.payload.picker_id, value: 'yes' });
    await b.waitFor((f) => f.type === 'message' && f.payload.role === 'assistant', { from: answered });
    expect(b.ofType('agent.busy', answered)).toHaveLength(0);
    expect(b.ofType('agent.idle', answered)).toHaveLength(0);
    const second = await b.request('picker.select', { picker_id: picker.payload.picker_id, value: 'yes' });
    expect(second).toMatchObject({ type: 'error', payload: { code: 'not_found' } });
  });
});
