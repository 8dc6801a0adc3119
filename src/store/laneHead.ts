// The first screen's read: a lane's newest messages, its channel and the gateway's status, straight from
// IndexedDB with the browser's own API, before Dexie and the rest of the app are even evaluated (see
// src/app/boot.ts). Only reads: the database is opened at whatever version it has, never created or
// upgraded (Dexie does that, later), and closed once read. Rows are repaired as Dexie's reading hook would.
import { repairChannel, repairMessage, repairPicker } from './repair';
import { TOOL_STATES, type ChannelRow, type MessageRow, type PickerRow, type ToolState } from './schema';
import { shownSettledPickers } from './settledPickers';

/** The name of the app's database (IrisDB's default). */
const DB_NAME = 'iris';

export interface StoredLaneHead {
  lane: string;
  channel: ChannelRow | undefined;
  /** Oldest first. */
  messages: MessageRow[];
  /** The `gatewayStatus` setting, as stored (unchecked). */
  gatewayStatus: unknown;
  /** What each shown reply's turn line tells of its tool cards and commentary beats, by turn. */
  activity?: Record<string, TurnItem[]>;
  /** The pixel size of the shown messages' pictures and videos, where known, by media id (their boxes). */
  media?: Record<string, MediaSize>;
  /** The questions the lane keeps as cards (answered or closed), oldest first: each goes after the messages before it. */
  pickers?: PickerRow[];
}

export interface MediaSize {
  width?: number;
  height?: number;
}

/** Of one activity row, what its turn's line says: its kind, and a tool's end and time ("· 1 failed · 24 ms"). */
export interface TurnItem {
  kind: 'tool' | 'commentary';
  state?: ToolState;
  duration?: number;
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

/** The database as it is, or undefined if it does not exist (a first visit) or cannot be opened. */
function openExisting(name: string): Promise<IDBDatabase | undefined> {
  return new Promise((resolve) => {
    let opening: IDBOpenDBRequest;
    try {
      opening = indexedDB.open(name);
    } catch {
      resolve(undefined);
      return;
    }
    // No database yet: leave its creation to Dexie, which knows the schema.
    opening.onupgradeneeded = () => opening.transaction?.abort();
    opening.onsuccess = () => resolve(opening.result);
    opening.onerror = () => resolve(undefined);
    opening.onblocked = () => resolve(undefined);
  });
}

const NAMES = ['messages', 'channels', 'settings'];
/** Read too where the database has them: only the turn lines, the media boxes and the question cards need them, never the head as a whole. */
const ACTIVITY = 'activity';
const MEDIA = 'media';
const PICKERS = 'pickers';

/** getAll with options (Chromium 141+, which brought getAllRecords with it); not yet in TypeScript's DOM types. */
interface IndexWithOptions {
  getAll(options: { query: IDBKeyRange; count: number; direction: IDBCursorDirection }): IDBRequest<unknown[]>;
}

/** The `limit` newest rows of `lane`, newest first. */
function newestRows(index: IDBIndex, lane: string, limit: number): Promise<unknown[]> {
  const range = IDBKeyRange.bound([lane, -Infinity], [lane, Infinity]);
  // One request where getAll takes a direction; a cursor brings its rows one round trip each (some
  // prefetched), every one a task of the main thread before the head can be painted.
  if ('getAllRecords' in index) {
    try {
      return request((index as unknown as IndexWithOptions).getAll({ query: range, count: limit, direction: 'prev' }));
    } catch {
      // A getAll that takes no options refuses the object as a key (DataError, thrown at once): the cursor.
    }
  }
  return new Promise((resolve, reject) => {
    const rows: unknown[] = [];
    const cursor = index.openCursor(range, 'prev');
    cursor.onsuccess = () => {
      const at = cursor.result;
      if (!at || rows.length >= limit) return resolve(rows);
      rows.push(at.value);
      at.continue();
    };
    cursor.onerror = () => reject(cursor.error ?? new Error('IndexedDB cursor failed'));
  });
}

/**
 * The `limit` newest messages of `lane` (or of the default channel when `lane` is undefined: the app's
 * home, which opens it), with its channel and the gateway's status. Undefined when there is nothing to
 * show: no database, not paired (home only), or a read that failed.
 */
export async function readLaneHead(
  lane: string | undefined,
  limit: number,
  name = DB_NAME,
): Promise<StoredLaneHead | undefined> {
  const db = await openExisting(name);
  if (!db) return undefined;
  try {
    if (!NAMES.every((name) => db.objectStoreNames.contains(name))) return undefined;
    const withActivity = db.objectStoreNames.contains(ACTIVITY);
    const withMedia = db.objectStoreNames.contains(MEDIA);
    const withPickers = db.objectStoreNames.contains(PICKERS);
    const tx = db.transaction(
      [...NAMES, ...(withActivity ? [ACTIVITY] : []), ...(withMedia ? [MEDIA] : []), ...(withPickers ? [PICKERS] : [])],
      'readonly',
    );
    const settings = tx.objectStore('settings');
    const channels = tx.objectStore('channels');
    const status: Promise<unknown> = request(settings.get('gatewayStatus'));
    let channel: Promise<ChannelRow | undefined>;
    if (lane === undefined) {
      const token = ((await request(settings.get('token'))) as { value?: unknown } | undefined)?.value;
      if (typeof token !== 'string' || !token) return undefined;
      const home = homeChannel((await request(channels.getAll())).map(repairChannel));
      if (!home) return undefined;
      lane = home.chat_id;
      channel = Promise.resolve(home);
    } else {
      channel = request(channels.get(lane)).then((found) => (found === undefined ? undefined : repairChannel(found)));
    }
    // Asked for together: the database answers them in one go, not one round trip after another.
    const asked = withPickers ? settledPickers(tx.objectStore(PICKERS), lane) : undefined;
    const [newestFirst, shown, stored] = await Promise.all([
      newestRows(tx.objectStore('messages').index('[lane+ts]'), lane, limit),
      channel,
      status,
    ]);
    const gatewayStatus = (stored as { value?: unknown } | undefined)?.value;
    const messages = newestFirst.reverse().map(repairMessage);
    const counted = withActivity ? turnItems(tx.objectStore(ACTIVITY), messages) : undefined;
    const sized = withMedia ? mediaSizes(tx.objectStore(MEDIA), messages) : undefined;
    // Each is optional: the lane draws the turn lines and the question cards a moment later, and a box of unknown size.
    const [activity, media, pickers] = await Promise.all([
      counted?.catch(() => undefined),
      sized?.catch(() => undefined),
      asked,
    ]);
    return {
      lane,
      channel: shown,
      messages,
      gatewayStatus,
      ...(activity ? { activity } : {}),
      ...(media ? { media } : {}),
      ...(pickers?.length ? { pickers } : {}),
    };
  } catch {
    return undefined;
  } finally {
    db.close();
  }
}

/**
 * The tool cards and beats of each shown reply's turn, as its line needs them. Whole rows are read (a
 * tool's output comes with it): counted from their keys alone, the line lacked the tools' time, and on a
 * phone the lane's longer line wrapped where the head's did not, moving every message above it.
 */
async function turnItems(store: IDBObjectStore, messages: MessageRow[]): Promise<Record<string, TurnItem[]>> {
  const turns = [...new Set(messages.flatMap((m) => (m.role === 'assistant' && m.turn ? [m.turn] : [])))];
  const index = store.index('turn');
  const rows = await Promise.all(turns.map((turn) => request(index.getAll(IDBKeyRange.only(turn)))));
  const items: Record<string, TurnItem[]> = {};
  turns.forEach((turn, i) => {
    const list = (rows[i] as Partial<Record<keyof TurnItem, unknown>>[]).map((row): TurnItem => ({
      kind: row.kind === 'tool' ? 'tool' : 'commentary',
      ...(TOOL_STATES.includes(row.state as string) ? { state: row.state as ToolState } : {}),
      ...(num(row.duration) !== undefined ? { duration: num(row.duration) } : {}),
    }));
    if (list.length) items[turn] = list;
  });
  return items;
}

/** The lane's question cards (settledPickers.ts), or undefined if they cannot be read. */
function settledPickers(store: IDBObjectStore, lane: string): Promise<PickerRow[] | undefined> {
  try {
    return request(store.index('lane').getAll(IDBKeyRange.only(lane)))
      .then((rows) => shownSettledPickers(rows.map(repairPicker)))
      .catch(() => undefined); // the lane draws its cards a moment later
  } catch {
    return Promise.resolve(undefined); // no such index in this database's version
  }
}

/** The stored pixel sizes of the messages' pictures and videos (one get each, asked together). */
async function mediaSizes(store: IDBObjectStore, messages: MessageRow[]): Promise<Record<string, MediaSize>> {
  const ids = messages.flatMap((m) =>
    (m.media ?? []).flatMap((item) => (item.kind === 'image' || item.kind === 'video' ? [item.media_id] : [])),
  );
  const rows = (await Promise.all(ids.map((id) => request(store.get(id))))) as (MediaSize | undefined)[];
  const sizes: Record<string, MediaSize> = {};
  ids.forEach((id, i) => {
    const row = rows[i];
    if (row) sizes[id] = { width: num(row.width), height: num(row.height) };
  });
  return sizes;
}

/** A stored number, or undefined for anything else (the head reads rows unchecked). */
function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The channel the app's home opens (HomePage): the default one, else the first channel, else the first. */
function homeChannel(all: ChannelRow[]): ChannelRow | undefined {
  const channels = all.filter((c) => !c.archived).sort((a, b) => a.order - b.order);
  return (
    channels.find((c) => c.is_default) ??
    channels.find((c) => c.kind === 'default') ??
    channels.find((c) => c.kind !== 'thread') ??
    channels[0]
  );
}
