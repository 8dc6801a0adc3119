// What every browser test does in the app the way a person would: open a pairing link, land in a lane,
// open another lane, type and send; and what it reads back from the app's own IndexedDB ('iris', the
// raw API: no hooks into the app). Works against the demo gateway (./server.ts) and the hostile one.
import { expect, type Locator, type Page, type WebSocketRoute } from '@playwright/test';
import { pairingLink } from './server';

/** The demo gateway's default channel, where pairing lands. */
export const LANE = 'web:default';

/** Where the app is served and the token it pairs with (an IrisServer, a hostile gateway's setup…). */
export interface Pairable {
  origin: string;
  token: string;
}

export const messages = (page: Page): Locator => page.getByRole('log', { name: 'Messages' });
export const messageBox = (page: Page): Locator => page.getByRole('textbox', { name: 'Message' });

/** Opens the pairing link and waits until the app has opened the conversation it lands in. */
export async function pair(page: Page, to: Pairable): Promise<void> {
  await page.goto(pairingLink(to.origin, to.token));
  await expectLanded(page);
}

/** After pairing the app opens a lane (the default channel, or the one the link names). */
export async function expectLanded(page: Page, timeout = 20_000): Promise<void> {
  await expect(page).toHaveURL(/#\/c\//, { timeout });
  await expect(messages(page)).toBeVisible({ timeout });
}

/** Opens a lane by its address (`query`: e.g. `?m=<id>`), unless the page shows it already. */
export async function openLane(page: Page, at: { origin: string }, lane = LANE, query = ''): Promise<void> {
  const hash = `#/c/${encodeURIComponent(lane)}${query}`;
  if (!page.url().endsWith(hash)) await page.goto(`${at.origin}/${hash}`);
  await expect(messages(page)).toBeVisible({ timeout: 20_000 });
}

/**
 * Pairs the page and opens `lane` (by default the default channel, where pairing lands), then waits
 * for the shell around it: the channel navigation (desktop) or the button that opens it (phone).
 */
export async function pairAndOpen(page: Page, to: Pairable, lane = LANE): Promise<void> {
  await pair(page, to);
  await openLane(page, to, lane);
  await expect(
    page
      .getByRole('navigation', { name: 'Channels' })
      .or(page.getByRole('button', { name: 'Channels' }))
      .first(),
  ).toBeVisible();
}

/** Sends a message with the composer in the lane on screen. */
export async function sendMessage(page: Page, text: string): Promise<void> {
  await messageBox(page).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

/** The person's own bubble containing exactly `text`. */
export function mine(page: Page, text: string): Locator {
  return messages(page)
    .getByRole('article', { name: /^You, / })
    .filter({ has: page.locator('.bubble > .md').getByText(text, { exact: true }) });
}

/** A reply of the agent containing `text`: signed with the name its gateway reports (the demo's, or Hermes). */
export function hermes(page: Page, text: string): Locator {
  return messages(page)
    .getByRole('article', { name: /^(?:Iris demo agent|Hermes), / })
    .filter({ hasText: text });
}

/** Every row of one object store of the app's DB ([] while the store does not exist yet). */
export function storeRows<T>(page: Page, store: string): Promise<T[]> {
  return page.evaluate(async (name) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open('iris');
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    try {
      if (!db.objectStoreNames.contains(name)) return [];
      return await new Promise<unknown[]>((resolve, reject) => {
        const req = db.transaction(name).objectStore(name).getAll();
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
    } finally {
      db.close();
    }
  }, store) as Promise<T[]>;
}

/**
 * Waits until the page has painted what a viewport or colour-scheme change asked for: no finite
 * animation or transition still running (a spinner's endless one does not count), then two frames.
 */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}

/**
 * Speaks for the gateway on the app's own socket (passed through to the real one): set up before the
 * page connects; `speak` sends a frame (`v` and the lane filled in unless given; no lane when `lane` is null).
 */
export async function speakForGateway(
  page: Page,
  lane: string | null = LANE,
): Promise<(frame: Record<string, unknown>) => void> {
  let socket: WebSocketRoute | undefined;
  await page.routeWebSocket(/\/ws$/, (ws) => {
    ws.connectToServer();
    socket = ws;
  });
  return (frame) => {
    if (!socket) throw new Error('the app has not connected yet');
    socket.send(JSON.stringify({ v: 1, ...(lane === null ? {} : { chat_id: lane }), ...frame }));
  };
}

/**
 * The app's socket passed through, changed as a test needs (set up before the page connects):
 * - `holdMs`: the app's `message.send` frames wait this long (so a pending bubble is visible);
 * - `failMarker`: the first one whose text contains it is answered with a gateway error (`refusal`, by
 *   default "disk full") instead of being forwarded, without its request id if `refusalWithoutId`;
 * - `historyDelayMs`: the gateway's `history` pages reach the page this much later;
 * - `holdUploadAcks`: the gateway's `media.upload.ack` never reaches the page, so a message with a file
 *   stays on its way (every byte sent, never confirmed);
 * - `dropReadReceipts`: the gateway's `read.receipt` frames never reach the page.
 */
export async function routeGateway(
  page: Page,
  opts: {
    holdMs?: number;
    failMarker?: string;
    refusal?: string;
    /** The refusal carries no request id (protocol.py's `error()` not given one). */
    refusalWithoutId?: boolean;
    historyDelayMs?: number;
    holdUploadAcks?: boolean;
    dropReadReceipts?: boolean;
  } = {},
): Promise<void> {
  let failed = false;
  await page.routeWebSocket(/\/ws$/, (ws) => {
    const server = ws.connectToServer();
    if (opts.historyDelayMs || opts.holdUploadAcks || opts.dropReadReceipts) {
      server.onMessage((message) => {
        if (typeof message === 'string') {
          if (opts.holdUploadAcks && message.includes('"media.upload.ack"')) return;
          if (opts.dropReadReceipts && message.includes('"type":"read.receipt"')) return;
          if (opts.historyDelayMs && message.includes('"type":"history"')) {
            setTimeout(() => ws.send(message), opts.historyDelayMs);
            return;
          }
        }
        ws.send(message);
      });
    }
    ws.onMessage(async (message) => {
      if (typeof message === 'string') {
        let frame: { type?: string; id?: number; payload?: { text?: string } } | undefined;
        try {
          frame = JSON.parse(message);
        } catch {
          frame = undefined;
        }
        if (frame?.type === 'message.send') {
          if (opts.failMarker && !failed && frame.payload?.text?.includes(opts.failMarker)) {
            failed = true;
            const refusal = { code: 'internal', message: opts.refusal ?? 'disk full' };
            const id = opts.refusalWithoutId ? undefined : frame.id;
            ws.send(JSON.stringify({ v: 1, type: 'error', id, payload: refusal }));
            return;
          }
          if (opts.holdMs) await new Promise((r) => setTimeout(r, opts.holdMs));
        }
      }
      server.send(message);
    });
  });
}
