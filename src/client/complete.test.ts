// Slash autocomplete keeps up with typing: whatever holds the request up (a sync replay, a leader tab
// that does not answer), the cached catalog answers after the deadline.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { setSetting } from '../store/models/settings';
import { freshDb } from '../testing/db';
import { createCommands } from './commands';
import type { Transport } from './transport';

const never = () => new Promise<never>(() => {});

function stalledTransport(): Transport {
  return {
    request: never,
    notify: never,
    upload: never,
    pull: never,
    fetchHistory: never,
    outboxChanged: () => {},
    reconfigure: async () => {},
    retryNow: () => {},
  };
}

describe('complete', () => {
  it('answers from the cached catalog when the request is held up past the deadline', async () => {
    const db = freshDb();
    await setSetting(db, 'commands', [
      { name: 'model', description: 'Choose the model' },
      { name: 'help', description: 'List commands' },
    ]);
    const commands = createCommands(db, stalledTransport);
    const started = Date.now();
    const matches = await commands.complete('/mo');
    expect(matches.map((m) => m.name)).toEqual(['model']);
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(1900);
    expect(waited).toBeLessThan(5000);
  });
});
