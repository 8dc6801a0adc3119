import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IrisDB } from '../db';
import { freshDb } from '../../testing/db';
import {
  discardSend,
  enqueue,
  listOutbox,
  markFailed,
  markSending,
  nextQueued,
  queueSend,
  requeueSending,
  retry,
} from './outbox';

let db: IrisDB;
beforeEach(() => {
  db = freshDb();
});
afterEach(() => db.close());

const send = (client_id: string, now = 1000) => ({ client_id, lane: 'A', chat_id: 'A', text: client_id, now });

describe('outbox model', () => {
  it('numbers sends strictly increasing, even with the same or an earlier clock', async () => {
    const a = await enqueue(db, send('a', 1000));
    const b = await enqueue(db, send('b', 1000));
    const c = await enqueue(db, send('c', 500));
    expect(a.seq).toBe(1000);
    expect(b.seq).toBe(1001);
    expect(c.seq).toBe(1002);
    expect((await enqueue(db, send('a', 9999))).seq).toBe(1000);
    expect((await listOutbox(db)).map((r) => r.client_id)).toEqual(['a', 'b', 'c']);
  });

  it('drains in order, skipping sends on the wire or failed, and requeues after a reload', async () => {
    await queueSend(db, send('a'));
    await queueSend(db, send('b'));
    await queueSend(db, send('c'));
    expect((await nextQueued(db))?.client_id).toBe('a');
    expect((await markSending(db, 'a'))?.attempts).toBe(1);
    expect((await nextQueued(db))?.client_id).toBe('b');
    await markFailed(db, 'b', 'Too large');
    expect((await nextQueued(db))?.client_id).toBe('c');
    expect(await db.messages.get('local:b')).toMatchObject({ status: 'failed', error: 'Too large' });

    expect(await requeueSending(db)).toBe(1);
    expect((await nextQueued(db))?.client_id).toBe('a');

    await retry(db, 'b');
    expect((await db.outbox.get('b'))?.state).toBe('queued');
    expect((await db.outbox.get('b'))?.error).toBeUndefined();
    expect(await db.messages.get('local:b')).toMatchObject({ status: 'pending' });
    expect(await markSending(db, 'nope')).toBeUndefined();
  });

  it('queueSend writes the bubble and the outbox row together; discard removes both', async () => {
    const { message, outbox } = await queueSend(db, {
      ...send('a'),
      thread_id: 't',
      reply_to: 'm1',
      attachments: ['f1'],
    });
    expect(message).toMatchObject({ message_id: 'local:a', status: 'pending', thread_id: 't', reply_to: 'm1' });
    expect(outbox).toMatchObject({ client_id: 'a', state: 'queued', attempts: 0, thread_id: 't', attachments: ['f1'] });
    await discardSend(db, 'a');
    expect(await db.messages.count()).toBe(0);
    expect(await db.outbox.count()).toBe(0);
  });

  it('queueSend does not queue a message whose echo is already stored', async () => {
    await db.messages.put({
      message_id: 's1',
      lane: 'A',
      chat_id: 'A',
      role: 'user',
      text: 'a',
      ts: 1,
      status: 'sent',
      client_id: 'a',
    });
    const result = await queueSend(db, send('a'));
    expect(result.message.message_id).toBe('s1');
    expect(result.outbox).toBeUndefined();
    expect(await db.outbox.count()).toBe(0);
  });
});
