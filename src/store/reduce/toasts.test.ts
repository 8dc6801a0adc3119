import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerFrame } from '../../protocol';
import { IrisDB } from '../db';
import { applyFrame, applyFrames } from '../reducer';

describe('gateway error toasts', () => {
  let db: IrisDB | undefined;
  afterEach(async () => {
    await db?.delete();
  });
  const fresh = () => (db = new IrisDB(`errors-${Math.random()}`));

  it('shows a stray error in words, with the gateway detail as plain text, once', async () => {
    const d = fresh();
    const frame = {
      v: 1,
      type: 'error',
      payload: { code: 'not_found', message: 'No turn is in progress <b>here</b>' },
    } as ServerFrame;
    await applyFrame(d, frame, { now: 1000 });
    await applyFrame(d, frame, { now: 1500 }); // the same error again moments later: one toast
    const toasts = await d.toasts.toArray();
    expect(toasts).toHaveLength(1);
    // Titled in the gateway's own words (as text), not by its error code.
    expect(toasts[0]).toMatchObject({ kind: 'error', title: 'No turn is in progress <b>here</b>', body: '' });
  });

  it('copes with an unknown code or a missing message', async () => {
    const d = fresh();
    await applyFrame(d, { v: 1, type: 'error', payload: { code: 42 } } as unknown as ServerFrame);
    expect((await d.toasts.toArray())[0]).toMatchObject({
      title: 'The gateway reported an unexpected problem.',
      body: '',
    });
  });

  it('applies every other frame beside it, alone or in a batch', async () => {
    const d = fresh();
    await applyFrame(d, { v: 1, type: 'status', payload: { state: 'degraded' } } as ServerFrame, { gateway: 'ws://x' });
    expect((await d.settings.get('gatewayStatus'))?.value).toEqual({ state: 'degraded' });
    await applyFrames(
      d,
      [
        { v: 1, type: 'error', payload: { code: 'rate_limited', message: 'slow down' } } as ServerFrame,
        { v: 1, type: 'channel.created', payload: { chat_id: 'c1', name: 'New', kind: 'channel' } } as ServerFrame,
      ],
      { gateway: 'ws://x' },
    );
    expect(await d.channels.get('c1')).toMatchObject({ name: 'New' });
    expect((await d.toasts.toArray()).map((t) => t.title)).toEqual(['slow down']);
  });
});
