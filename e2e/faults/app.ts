// What the fault suite does in the app beyond the shared helpers (../support): send only once the
// button reads Send, read the whole DB state in one go ('iris', raw API: no hooks into the app), watch
// the wire and fill the disk.
import type { Page } from '@playwright/test';

interface AppMessage {
  message_id: string;
  lane: string;
  role: string;
  text: string;
  status: string;
  client_id?: string;
  media?: { media_id: string; size?: number }[];
}

export interface AppState {
  messages: AppMessage[];
  outbox: { client_id: string; state: string; text: string }[];
  cursors: { gateway: string; cursor: number }[];
  lanes: { lane: string; busy: boolean }[];
  deviceId?: string;
}

/**
 * Types `text` and presses Send once the button reads Send (while the agent works it reads Steer, and
 * a person waits), then waits until the app has the message in its DB (the pending bubble). The label
 * is checked and the button pressed in one task in the page: Playwright's own click leaves a gap in
 * which a reply starting elsewhere can turn the button into Steer under the pointer.
 * Returns undefined once stored, else what the person sees instead.
 */
export async function send(page: Page, text: string, timeoutMs = 30_000): Promise<string | undefined> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  const pressed = await waitUntil(
    () =>
      page.evaluate(() => {
        const button = document.querySelector<HTMLButtonElement>('form.composer button[type=submit]');
        if (!button || button.disabled || button.textContent?.trim() !== 'Send') return false;
        button.click();
        return true;
      }),
    timeoutMs,
  );
  if (!pressed) return `the Send button never showed within ${timeoutMs} ms`;
  const stored = await waitUntil(
    async () => (await readApp(page)).messages.some((m) => m.text === text && m.role === 'user'),
    10_000,
  );
  if (stored) return undefined;
  // What the person sees instead: the button's label, what is left in the box, any error.
  const button = await page
    .locator('form.composer button[type=submit]')
    .textContent()
    .catch(() => '?');
  const left = await box.inputValue().catch(() => '?');
  const alerts = await page
    .getByRole('alert')
    .allTextContents()
    .catch(() => []);
  return `button "${button?.trim()}", box ${JSON.stringify(left)}, alerts ${JSON.stringify(alerts)}`;
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, everyMs = 50): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return true;
    } catch {
      // the page may be reloading
    }
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Everything the checks need from the app's DB, read in one go. */
export function readApp(page: Page): Promise<AppState> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open('iris');
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    try {
      const all = <T>(store: string) =>
        new Promise<T[]>((resolve, reject) => {
          if (!db.objectStoreNames.contains(store)) return resolve([]);
          const req = db.transaction(store).objectStore(store).getAll();
          req.onsuccess = () => resolve(req.result as T[]);
          req.onerror = () => reject(req.error);
        });
      const [messages, outbox, cursors, lanes, settings] = await Promise.all([
        all<AppMessage>('messages'),
        all<{ client_id: string; state: string; text: string }>('outbox'),
        all<{ gateway: string; cursor: number }>('sync'),
        all<{ lane: string; busy: boolean }>('lanes'),
        all<{ key: string; value: unknown }>('settings'),
      ]);
      const deviceId = settings.find((s) => s.key === 'deviceId')?.value;
      return {
        messages: messages.map((m) => ({
          message_id: m.message_id,
          lane: m.lane,
          role: m.role,
          text: m.text,
          status: m.status,
          client_id: m.client_id,
          media: m.media,
        })),
        outbox: outbox.map((o) => ({ client_id: o.client_id, state: o.state, text: o.text })),
        cursors: cursors.map((c) => ({ gateway: c.gateway, cursor: c.cursor })),
        lanes: lanes.map((l) => ({ lane: l.lane, busy: l.busy })),
        deviceId: typeof deviceId === 'string' ? deviceId : undefined,
      };
    } finally {
      db.close();
    }
  });
}

/** The browser "comes back online": the app retries at once instead of waiting out its backoff. */
export async function nudgeOnline(page: Page): Promise<void> {
  await page.evaluate(() => window.dispatchEvent(new Event('online'))).catch(() => {});
}

/** Deterministic file bytes for an upload (a linear congruential generator seeded per run). */
export function uploadBytes(size: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let s = seed >>> 0;
  for (let i = 0; i < size; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    bytes[i] = s >>> 24;
  }
  return bytes;
}

/** What a page's sockets carried around each `sync` (recorded by `observeWire`). */
export interface WireSync {
  /** Which socket of the page (1 = the first it opened). */
  socket: number;
  /** The cursor the app sent. */
  cursor: number;
  /** The cursors of the frames that arrived after the sync was sent, until sync.done. */
  replayed: number[];
  /** sync.done's cursor; undefined while the replay runs (or when it was cut). */
  done?: number;
}

export interface WireLog {
  sockets: number;
  syncs: WireSync[];
  /** Readwrite transactions that would have stored a cursor and were refused while the disk was "full". */
  cursorWritesRefused: number;
  writesRefused: number;
}

/**
 * Init script for every page of a fault run: records each `sync` the page's sockets send and the
 * cursors replayed after it (read on the wire, not from the app), and can make IndexedDB writes fail
 * as a full disk does (`put`/`add` throw QuotaExceededError, deletes pass) while `__irisDiskFull` is set.
 */
export function observeWire(): void {
  const w = window as unknown as { __irisWire: WireLog; __irisDiskFull?: boolean };
  const log: WireLog = { sockets: 0, syncs: [], cursorWritesRefused: 0, writesRefused: 0 };
  w.__irisWire = log;
  const Native = window.WebSocket;
  class Observed extends Native {
    private readonly socket = ++log.sockets;
    private open: WireSync | undefined;
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.addEventListener('message', (ev: MessageEvent) => {
        if (!this.open || typeof ev.data !== 'string') return;
        try {
          type Seen = { type?: string; cursor?: unknown; payload?: { cursor?: unknown; frames?: unknown } };
          const frame = JSON.parse(ev.data) as Seen;
          if (frame.type === 'sync.done') {
            this.open.done = Number(frame.payload?.cursor);
            this.open = undefined;
          } else if (frame.type === 'frames' && Array.isArray(frame.payload?.frames)) {
            // A replay batch (the app asks for them): each frame in it was replayed.
            for (const inner of frame.payload.frames as Seen[])
              if (typeof inner?.cursor === 'number') this.open.replayed.push(inner.cursor);
          } else if (typeof frame.cursor === 'number') this.open.replayed.push(frame.cursor);
        } catch {
          // not JSON: not ours to judge
        }
      });
    }
    override send(data: Parameters<WebSocket['send']>[0]): void {
      if (typeof data === 'string' && data.includes('"type":"sync"')) {
        try {
          const cursor = Number((JSON.parse(data) as { payload?: { cursor?: unknown } }).payload?.cursor);
          this.open = { socket: this.socket, cursor, replayed: [] };
          log.syncs.push(this.open);
        } catch {
          // ignore
        }
      }
      super.send(data);
    }
  }
  window.WebSocket = Observed as typeof WebSocket;
  const refused = new WeakSet<IDBTransaction>();
  for (const method of ['put', 'add'] as const) {
    const native = IDBObjectStore.prototype[method];
    IDBObjectStore.prototype[method] = function (this: IDBObjectStore, ...args: [unknown, IDBValidKey?]) {
      if (w.__irisDiskFull) {
        log.writesRefused++;
        if (!refused.has(this.transaction) && this.transaction.objectStoreNames.contains('sync')) {
          refused.add(this.transaction);
          log.cursorWritesRefused++;
        }
        throw new DOMException('The disk is full (fault suite)', 'QuotaExceededError');
      }
      return native.apply(this, args);
    };
  }
}

export function readWire(page: Page): Promise<WireLog> {
  return page.evaluate(() => (window as unknown as { __irisWire: WireLog }).__irisWire);
}

/** The disk fills up (every write that adds bytes fails) or has room again. */
export async function setDiskFull(page: Page, full: boolean): Promise<void> {
  await page.evaluate((on) => ((window as unknown as { __irisDiskFull?: boolean }).__irisDiskFull = on), full);
}

/** The stored sync cursor (the largest over gateways), read from the app's DB; 0 when none. */
export async function storedCursor(page: Page): Promise<number> {
  const state = await readApp(page);
  return Math.max(0, ...state.cursors.map((c) => c.cursor));
}
