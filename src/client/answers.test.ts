// What the command layer hands the UI from a gateway's answer is checked there, once.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { ServerFrame } from '../protocol';
import { freshDb } from '../testing/db';
import { createCommands } from './commands';
import type { Transport } from './transport';

function answering(payload: unknown): Transport {
  const unused = () => Promise.reject(new Error('not used'));
  return {
    request: async () => ({ v: 1, type: 'channel.created', payload }) as unknown as ServerFrame,
    notify: unused,
    upload: unused,
    pull: unused,
    fetchHistory: unused,
    outboxChanged: () => {},
    reconfigure: async () => {},
    retryNow: () => {},
  };
}

describe('createChannel', () => {
  it('returns the channel the gateway made, its fields checked', async () => {
    const commands = createCommands(freshDb(), () =>
      answering({ chat_id: 'web:plans', name: 42, kind: 'nonsense', icon: {} }),
    );
    expect(await commands.createChannel('Plans', 'channel')).toEqual({
      chat_id: 'web:plans',
      name: 'web:plans',
      kind: 'channel',
    });
  });

  it('rejects an answer without a channel id, in words', async () => {
    const commands = createCommands(freshDb(), () => answering({ name: 'Plans' }));
    await expect(commands.createChannel('Plans', 'channel')).rejects.toThrow(
      'The gateway answered without a usable channel.',
    );
  });
});
