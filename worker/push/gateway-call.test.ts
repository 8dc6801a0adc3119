import 'fake-indexeddb/auto';
import WebSocket from 'ws';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHAT_ID } from '../../server/gateway';
import type { StandaloneGateway } from '../../server/gateway/standalone';
import { useGateway } from '../../server/gateway/testing';
import type { ServerFrame } from '../../src/protocol';
import { IrisDB } from '../../src/store/db';
import { laneMessages } from '../../src/store/models/messages';
import { setSetting } from '../../src/store/models/settings';
import { applyFrame } from '../../src/store/reducer';
import { setPushRegistration } from '../../src/push/registration';
import { until } from '../../src/testing/until';
import { answerOverOwnConnection, helloOverOwnConnection, type CallOptions } from './gateway-call';

const TOKEN = 'worker-call-token-0123456789';
const fixture = useGateway({ token: TOKEN, streamDelayMs: 1 });
const options: CallOptions = { WebSocketImpl: WebSocket as unknown as CallOptions['WebSocketImpl'], lingerMs: 2_000 };
const subscription = {
  endpoint: 'https://push.example/sub/1',
  expirationTime: null,
  keys: { p256dh: 'BPk' + 'a'.repeat(84), auth: 'c2VjcmV0LWF1dGg' },
};
let dbCount = 0;

/**
 * A device that asked for an approval (the app stored the picker, as its reducer does) and was then
 * closed; the worker finds the gateway, token and device id in its DB.
 */
async function closedAppWithApproval(): Promise<{
  gw: StandaloneGateway;
  db: IrisDB;
  lane: string;
  pickerId: string;
  deviceId: string;
}> {
  const gw = fixture.gw;
  const db = new IrisDB(`worker-call-${process.pid}-${++dbCount}`);
  const deviceId = `phone-${dbCount}`;
  await setSetting(db, 'gatewayUrl', gw.url);
  await setSetting(db, 'token', TOKEN);
  await setSetting(db, 'deviceId', deviceId);
  await setPushRegistration(db, { mode: 'webpush', subscription, vapidKey: 'BKey' });
  const app = await fixture.device(deviceId, {
    caps: { min_protocol: 1, media: true, push: 'webpush' },
    extra: { webpush: subscription },
  });
  const lane = DEFAULT_CHAT_ID;
  app.send('message.send', { text: '/approve make deploy', client_id: 'c-1' }, { id: 2, chat_id: lane });
  const picker = await app.waitType('picker.approval');
  await applyFrame(db, picker as ServerFrame, { gateway: gw.url });
  app.ws.close();
  await app.closed;
  const pickerId = String(picker.payload.picker_id);
  expect((await db.pickers.get(pickerId))?.state).toBe('open');
  return { gw, db, lane, pickerId, deviceId };
}

describe('answering a question over the worker’s own connection', () => {
  it('sends picker.select once; the agent continues; its reply lands in the DB; the device keeps its push', async () => {
    const { gw, db, lane, pickerId, deviceId } = await closedAppWithApproval();
    const cursors = await db.sync.toArray();
    const result = await answerOverOwnConnection(
      db,
      { picker_id: pickerId, value: 'once', chat_id: lane, lane },
      options,
    );
    expect(result).toEqual({ ok: true });
    const onGateway = gw.gateway.store.messages(lane).map((m) => m.text);
    expect(onGateway).toContain('Approved once: `make deploy`');
    // Applied with the app's reducer: the reply is there when the app opens, even offline.
    const stored = await until(
      async () => (await laneMessages(db, lane)).find((m) => m.text === 'Approved once: `make deploy`'),
      'reply stored',
    );
    expect(stored.role).toBe('assistant');
    expect((await db.pickers.get(pickerId))?.state).not.toBe('open');
    // The hello repeated the device's push details: the gateway still wakes it the same way.
    expect(gw.gateway.store.devices.get(deviceId)?.target).toMatchObject({
      mode: 'webpush',
      webpush: { endpoint: subscription.endpoint },
    });
    // The sync cursor did not move (the app replays these frames itself, idempotently); the socket is closed.
    expect(await db.sync.toArray()).toEqual(cursors);
    await until(() => gw.gateway.connectionCount() === 0, 'worker connection closed');
  });

  it('a question already answered elsewhere ends in words, not a hang', async () => {
    const { db, lane, pickerId } = await closedAppWithApproval();
    expect(await answerOverOwnConnection(db, { picker_id: pickerId, value: 'deny', lane }, options)).toEqual({
      ok: true,
    });
    const again = await answerOverOwnConnection(db, { picker_id: pickerId, value: 'once', lane }, options);
    // In the gateway's own words (ours, "This question was already answered or has closed.", only if it gave none).
    expect(again).toEqual({ ok: false, error: 'That question was already answered or no longer exists.' });
  });

  it('a token the gateway refuses, or no pairing at all, is an error in words', async () => {
    const { db, pickerId } = await closedAppWithApproval();
    await setSetting(db, 'token', 'not-the-token');
    const refused = await answerOverOwnConnection(db, { picker_id: pickerId, value: 'once' }, options);
    expect(refused).toEqual({ ok: false, error: 'The gateway did not accept this device. Pair it again.' });
    await db.settings.delete('gatewayUrl');
    const unpaired = await answerOverOwnConnection(db, { picker_id: pickerId, value: 'once' }, options);
    expect(unpaired.ok).toBe(false);
    expect(!unpaired.ok && unpaired.error).toMatch(/no longer paired/);
  });

  it('an unreachable gateway fails within the deadline', async () => {
    const db = new IrisDB(`worker-call-${process.pid}-${++dbCount}`);
    await setSetting(db, 'gatewayUrl', 'ws://127.0.0.1:9/ws');
    await setSetting(db, 'token', 't');
    await setSetting(db, 'deviceId', 'd');
    const result = await answerOverOwnConnection(
      db,
      { picker_id: 'p', value: 'once' },
      { ...options, timeoutMs: 3_000 },
    );
    expect(result).toEqual({ ok: false, error: 'The gateway could not be reached.' });
  });

  it('hello only: a renewed subscription reaches the gateway', async () => {
    const { gw, db, deviceId } = await closedAppWithApproval();
    const renewed = { ...subscription, endpoint: 'https://push.example/sub/2' };
    await setPushRegistration(db, { mode: 'webpush', subscription: renewed, vapidKey: 'BKey' });
    expect(await helloOverOwnConnection(db, options)).toEqual({ ok: true });
    expect(gw.gateway.store.devices.get(deviceId)?.target.webpush?.endpoint).toBe(renewed.endpoint);
  });
});
