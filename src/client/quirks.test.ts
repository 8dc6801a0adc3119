// The app's command layer and session against the reference gateway's quirks (issue 14): what
// another gateway may legitimately send instead of what ours does.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayQuirks } from '../../server/gateway/quirks';
import { TestClient } from '../../server/gateway/testclient';
import { freshDb } from '../testing/db';
import { defaultLane, pairedClient, TOKEN, useTestGateway } from '../testing/gatewayClient';
import { until } from '../testing/until';
import { ProtocolError } from '../net/errors';
import WebSocket from 'ws';
import type { WebSocketConstructor } from '../net/connection';

// Registered before the clean-up below, so it runs after it: clients stop before their gateway closes.
const fixture = useTestGateway();
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function setup(quirks: GatewayQuirks, extra: Parameters<typeof pairedClient>[2] = {}) {
  const gw = await fixture.restart({ quirks });
  const db = freshDb();
  const c = await pairedClient(db, gw.url, extra);
  cleanup.push(() => c.stop());
  return { gw, db, c };
}

describe('against other readings of the protocol', () => {
  it('hello.ack without channels: the directory comes from channel.list', async () => {
    const { db } = await setup({ helloAckWithoutChannels: true });
    expect(await defaultLane(db)).toBe('web:default');
    expect((await db.channels.toArray()).map((c) => c.chat_id).sort()).toEqual(['web:default', 'web:demo']);
  });

  it('hello.ack with an empty list (protocol.py when not given one): the directory comes from channel.list', async () => {
    const { db } = await setup({ helloAckEmptyChannels: true });
    expect(await defaultLane(db)).toBe('web:default');
    expect((await db.channels.toArray()).map((c) => c.chat_id).sort()).toEqual(['web:default', 'web:demo']);
  });

  it('channel.renamed {chat_id, name} answering favorite, icon and default: the acknowledged change is kept', async () => {
    const { db, c } = await setup({ renamedNameOnly: true });
    await defaultLane(db);
    await c.favorite('web:demo', true);
    await c.setIcon('web:demo', '🧪', '#0a7');
    expect(await db.channels.get('web:demo')).toMatchObject({
      name: 'Demo',
      favorite: true,
      icon: '🧪',
      color: '#0a7',
    });
    await c.setDefault('web:demo');
    expect((await db.channels.toArray()).filter((r) => r.is_default).map((r) => r.chat_id)).toEqual(['web:demo']);
    await c.favorite('web:demo', false);
    expect((await db.channels.get('web:demo'))?.favorite).toBe(false);
  });

  it('no sync (refused as unsupported): live frames with cursors do not make the app ask for it again and again', async () => {
    const sent: string[] = [];
    class Recording extends WebSocket {
      override send(data: string, ...rest: never[]) {
        sent.push((JSON.parse(data) as { type: string }).type);
        super.send(data, ...rest);
      }
    }
    const { db, c } = await setup({ noSync: true }, { WebSocketImpl: Recording as unknown as WebSocketConstructor });
    const lane = await defaultLane(db);
    await c.send(lane, 'hello');
    await until(
      async () => (await db.messages.toArray()).some((m) => m.role === 'assistant' && m.status === 'final'),
      'the reply',
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // a resync's first wait is 1 s
    expect(sent.filter((type) => type === 'sync')).toEqual(['sync']);
  });

  it('a stale picker answered here after another device did: refused, and closed here', async () => {
    const { gw, db, c } = await setup({ stalePickers: true });
    const lane = await defaultLane(db);
    const other = await TestClient.paired(gw.url, { token: TOKEN, device_id: 'other' });
    cleanup.push(() => other.close());
    const from = other.mark();
    await c.send(lane, '/confirm');
    const picker = await until(async () => (await db.pickers.toArray()).find((p) => p.state === 'open'), 'picker open');
    await other.waitType('picker.confirm', { from });
    await other.request('picker.select', { picker_id: picker.picker_id, value: 'no' });
    const err = await c.selectPicker(picker.picker_id, 'yes').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProtocolError);
    expect((err as ProtocolError).code).toBe('not_found');
    expect((await db.pickers.get(picker.picker_id))?.state).toBe('closed');
  });
});
