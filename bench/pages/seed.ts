// Writes benchmark data into the app's own database (IrisDB 'iris', same schema as the app) on the
// app's origin, before the app is opened. Not measured.
import { IrisDB } from '../../src/store/db';
import { emptyLane } from '../../src/store/models/lanes';
import type { MessageRow } from '../../src/store/schema';
import { writePairedHint } from '../../src/runtime/pairedHint';
import { syntheticMessages } from '../../src/search/syntheticMessages';
import { laneHistory, type LaneHistoryOptions } from '../inpage/laneHistory';

interface SeedLaneArgs extends LaneHistoryOptions {
  /** Stored as the paired gateway (a dead address when the gateway is meant to be stopped). */
  gatewayUrl: string;
  token: string;
}

export interface SeedApi {
  seedLane(args: SeedLaneArgs): Promise<number>;
  /** `count` synthetic messages (the search benchmark's corpus) over 20 lanes. */
  seedSearch(count: number): Promise<number>;
}

const CHUNK = 5000;

async function putMessages(db: IrisDB, rows: MessageRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await db.messages.bulkPut(rows.slice(i, i + CHUNK));
}

const api: SeedApi = {
  async seedLane(args) {
    const db = new IrisDB();
    await db.transaction('rw', db.settings, db.channels, db.lanes, async () => {
      await db.settings.bulkPut([
        { key: 'gatewayUrl', value: args.gatewayUrl },
        { key: 'token', value: args.token },
        { key: 'deviceId', value: crypto.randomUUID() },
        { key: 'deviceName', value: 'bench' },
      ]);
      await db.channels.put({ chat_id: args.lane, name: 'General', kind: 'default', is_default: true, order: 0 });
      await db.lanes.put({ ...emptyLane(args.lane), readTs: Number.MAX_SAFE_INTEGER, hasMore: false });
    });
    await putMessages(db, laneHistory(args));
    db.close();
    // The mark the app's runtime keeps beside a stored token: without it the app takes the browser for a
    // new visitor's and preloads the pairing page with its entry (4 more requests before the first paint).
    writePairedHint(true);
    return args.count;
  },

  async seedSearch(count) {
    const db = new IrisDB();
    const rows: MessageRow[] = syntheticMessages(count).map((m, i) => ({
      ...m,
      chat_id: m.lane,
      role: i % 2 === 0 ? 'user' : 'assistant',
      status: 'final',
    }));
    await putMessages(db, rows);
    db.close();
    return rows.length;
  },
};

(window as unknown as { bench: SeedApi }).bench = api;
document.getElementById('state')!.textContent = 'ready';
