// The runtime's shared services: one per runtime, and those that can stop are stopped with it.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { startLocalIndex } from '../search/appIndex';
import { createTestRuntime } from '../testing/runtime';
import { until } from '../testing/until';
import type { IrisRuntime } from './runtime';

let runtime: IrisRuntime | undefined;
afterEach(async () => {
  await runtime?.db.delete();
  runtime = undefined;
});

describe('runtime.shared', () => {
  it('gives one search index per runtime; stop() stops it, and the next ask builds a new one', async () => {
    runtime = createTestRuntime();
    const first = runtime.shared(startLocalIndex);
    expect(runtime.shared(startLocalIndex)).toBe(first);
    await first.ready;

    await runtime.stop();
    const next = runtime.shared(startLocalIndex);
    expect(next).not.toBe(first);
    await next.ready;
    // Written after both exist: each would index it the same way, through its batch of changes.
    await runtime.db.messages.put({
      message_id: 'b',
      lane: 'general',
      chat_id: 'general',
      role: 'user',
      text: 'bravo',
      ts: 2,
      status: 'final',
    });
    await until(async () => (await next.search('bravo')).length > 0, 'the new index to find the message');
    expect(await first.search('bravo')).toEqual([]);
    next.stop();
  });
});
