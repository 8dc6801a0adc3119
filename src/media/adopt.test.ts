// settleSentAttachments against the echo landing while it looks: the local files of a send are dropped
// only when the send is really gone, never because the echo replaced its bubble between two reads.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { localMessageId } from '../store/models/messages';
import type { MediaRow, MessageRow, OutboxRow } from '../store/schema';
import { freshDb } from '../testing/db';
import { settleSentAttachments } from './adopt';

const LANE = 'web:default';
const CLIENT = 'c1';
/** The app's own media_ref, which this gateway also uses as the media_id (spec §10 allows it). */
const REF = '6b1c0ba2-934a-4745-8c1b-0808a454d355';

const local: MediaRow = {
  media_id: REF,
  kind: 'image',
  mime: 'image/png',
  size: 3,
  filename: 'mine.png',
  lane: LANE,
  state: 'local',
  client_id: CLIENT,
  position: 0,
  lastUsed: 1,
};
const pending: MessageRow = {
  message_id: localMessageId(CLIENT),
  lane: LANE,
  chat_id: LANE,
  role: 'user',
  text: 'my own picture',
  ts: 1,
  status: 'pending',
  client_id: CLIENT,
  media: [{ media_id: REF, kind: 'image', mime: 'image/png', size: 3, filename: 'mine.png' }],
};
const queued: OutboxRow = {
  client_id: CLIENT,
  seq: 1,
  lane: LANE,
  chat_id: LANE,
  text: 'my own picture',
  attachments: [REF],
  state: 'sending',
  attempts: 1,
  createdAt: 1,
};

describe('settleSentAttachments', () => {
  it('keeps a send’s files when its echo lands between its reads, and adopts them after', async () => {
    const db = freshDb();
    await db.media.put(local);
    await db.mediaBlobs.put({ media_id: REF, blob: new Blob(['png']) });
    await db.messages.put(pending);
    await db.outbox.put(queued);

    // The echo lands (as the reducer stores it: the bubble and the outbox row go, the gateway's message
    // comes) right after settle looked for it and found none, before it looks at the bubble and outbox.
    let landing: Promise<void> | undefined;
    const land = () =>
      (landing ??= db.transaction('rw', db.messages, db.outbox, async () => {
        await db.messages.delete(pending.message_id);
        await db.outbox.delete(CLIENT);
        await db.messages.put({ ...pending, message_id: 'msg_1', status: 'sent' });
      }));
    const outboxGet = db.outbox.get.bind(db.outbox);
    const messagesGet = db.messages.get.bind(db.messages);
    db.outbox.get = ((key: string) => land().then(() => outboxGet(key))) as typeof db.outbox.get;
    db.messages.get = ((key: string) => land().then(() => messagesGet(key))) as typeof db.messages.get;
    const landed = () => landing !== undefined;

    await settleSentAttachments(db, 2);
    expect(landed()).toBe(true);
    // Still here: the send was echoed, not discarded.
    expect(await db.media.get(REF)).toMatchObject({ state: 'local' });
    expect(await db.mediaBlobs.get(REF)).toBeDefined();

    // The next settle finds the echo and adopts the file in place, ready, bytes kept.
    await settleSentAttachments(db, 3);
    expect(await db.media.get(REF)).toMatchObject({ state: 'ready', message_id: 'msg_1' });
    expect(await db.mediaBlobs.get(REF)).toBeDefined();
  });

  it('drops the files of a send that is gone: no echo, nothing queued, no bubble', async () => {
    const db = freshDb();
    await db.media.put(local);
    await db.mediaBlobs.put({ media_id: REF, blob: new Blob(['png']) });
    await settleSentAttachments(db, 2);
    expect(await db.media.get(REF)).toBeUndefined();
    expect(await db.mediaBlobs.get(REF)).toBeUndefined();
  });
});
