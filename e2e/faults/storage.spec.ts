// Issue 9, storage under pressure: with the origin's quota made small (DevTools
// Storage.overrideQuotaForOrigin), filling the cache evicts media first, keeps every message and
// tells the person; and records that cannot be read (wrong field types) never blank a screen.
import { expect, test, type Page } from '@playwright/test';
import { startHostile, type HostileSetup, type Json } from '../hostile/hostile-gateway';
import { pairAndOpen, storeRows } from '../support';

const LANE = 'web:default';
const MiB = 1024 * 1024;
let hostile: HostileSetup;

test.afterEach(async () => {
  await hostile?.close();
});

async function pairAtDesktop(page: Page): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 900 });
  await pairAndOpen(page, hostile);
}

test('a small quota: media is evicted first, every message stays, and the person is told', async ({ page }) => {
  test.setTimeout(240_000);
  const IMAGES = 30;
  const SIZE = 2 * MiB;
  hostile = await startHostile({
    onRequest(frame, reply) {
      if (frame.type !== 'media.pull') return false;
      const id = String((frame.payload as Json).media_id);
      const seed = Number(id.replace(/\D/g, '')) || 1;
      for (let off = 0; off < SIZE; off += 256 * 1024)
        hostile.gateway.emit(Buffer.alloc(Math.min(256 * 1024, SIZE - off), seed));
      reply({ type: 'media.pull.end', id: frame.id, payload: { ok: true } });
      return true;
    },
  });
  // The quota must be set before the origin first uses its storage. (Chromium then enforces it —
  // past it every write that adds bytes fails, even a small row, while deletes still pass — but
  // navigator.storage.estimate() keeps reporting the disk's quota; the app must cope with both.)
  const quota = 24 * MiB;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Storage.overrideQuotaForOrigin', { origin: hostile.origin, quotaSize: quota });
  await pairAtDesktop(page);

  // Thirty 2 MiB pictures (60 MiB) for a 24 MiB origin: each downloads by itself when offered.
  for (let i = 0; i < IMAGES; i++) {
    hostile.gateway.emit({
      type: 'message',
      chat_id: LANE,
      payload: { message_id: `pic${i}`, role: 'assistant', text: `picture number ${i}`, ts: 1_000 + i },
    });
    hostile.gateway.emit({
      type: 'media.offer',
      chat_id: LANE,
      payload: {
        media_id: `img${i}`,
        kind: 'image',
        mime: 'image/png',
        size: SIZE,
        filename: `picture-${i}.png`,
        message_id: `pic${i}`,
      },
    });
  }
  // Toasts are removed once they have been shown: remember every one seen on the way.
  const told = new Set<string>();
  const settled = async () => {
    for (const t of await storeRows<{ title: string; body: string }>(page, 'toasts')) told.add(`${t.title}: ${t.body}`);
    const media = await storeRows<{ media_id: string; state: string; size: number }>(page, 'media');
    return (
      media.length === IMAGES &&
      media.every((m) => ['ready', 'evicted', 'failed'].includes(m.state)) &&
      media.filter((m) => m.state === 'evicted').length > 0
    );
  };
  await expect
    .poll(settled, { timeout: 180_000, intervals: [500], message: 'every picture downloaded once, some evicted' })
    .toBe(true);

  // Media went first: every message is still here, whole.
  const messages = await storeRows<{ message_id: string; text: string; status: string }>(page, 'messages');
  for (let i = 0; i < IMAGES; i++)
    expect(messages.find((m) => m.message_id === `pic${i}`)?.text).toBe(`picture number ${i}`);
  const media = await storeRows<{ media_id: string; state: string; size: number }>(page, 'media');
  const blobs = await storeRows<{ media_id: string }>(page, 'mediaBlobs');
  const ready = media.filter((m) => m.state === 'ready');
  expect(ready.reduce((n, m) => n + m.size, 0)).toBeLessThanOrEqual(quota);
  for (const m of media.filter((x) => x.state === 'evicted'))
    expect(
      blobs.some((b) => b.media_id === m.media_id),
      `${m.media_id} evicted but its bytes stayed`,
    ).toBe(false);
  const usage = await page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);
  expect(usage).toBeLessThanOrEqual(quota);

  // The person was told, in words.
  expect(
    [...told].some((t) => /^Storage was full: Removed .* to make room/.test(t)),
    [...told].join('\n'),
  ).toBe(true);

  // An evicted picture says so and can be fetched again; messages still arrive and can be sent.
  const log = page.getByRole('log', { name: 'Messages' });
  await expect(async () => {
    await log.evaluate((el) => {
      for (let x: Element | null = el; x; x = x.parentElement)
        if (x.scrollHeight > x.clientHeight + 2) x.scrollTop = x.scrollHeight;
    });
    await expect(log.getByText('picture number 29')).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  hostile.gateway.emit({
    type: 'message',
    chat_id: LANE,
    payload: { message_id: 'after-full', role: 'assistant', text: 'a message after the cache filled up', ts: 5_000 },
  });
  await expect(log.getByText('a message after the cache filled up')).toBeVisible();
  await page.getByRole('textbox', { name: 'Message' }).fill('sent with a full cache');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect
    .poll(
      async () =>
        (await storeRows<{ text: string; status: string }>(page, 'messages')).find(
          (m) => m.text === 'sent with a full cache',
        )?.status,
    )
    .toBe('sent');
});

test('records that cannot be read (wrong field types) never blank the lane, the channel list or the app', async ({
  page,
}) => {
  test.setTimeout(120_000);
  hostile = await startHostile();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await pairAtDesktop(page);
  hostile.gateway.emit({
    type: 'message',
    chat_id: LANE,
    payload: { message_id: 'good-1', role: 'assistant', text: 'a good message before', ts: 1_000 },
  });
  hostile.gateway.emit({
    type: 'message',
    chat_id: LANE,
    payload: { message_id: 'good-2', role: 'user', text: 'a good message after', ts: 3_000 },
  });
  await expect(page.getByRole('log', { name: 'Messages' }).getByText('a good message after')).toBeVisible();

  // Corrupt rows, written past the app (as a bug, an old version or a damaged profile could leave them).
  await page.evaluate(async (lane) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open('iris');
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const bad = (ts: number, fields: Record<string, unknown>) => ({
      message_id: `bad-${ts}`,
      lane,
      chat_id: lane,
      ts,
      ...fields,
    });
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction(
        ['messages', 'channels', 'lanes', 'toasts', 'pickers', 'activity', 'media'],
        'readwrite',
      );
      const m = tx.objectStore('messages');
      m.put(bad(2_000, { role: 'assistant', status: 'final', text: 42 }));
      m.put(bad(2_001, { role: { x: 1 }, status: 'final', text: 'role is an object' }));
      m.put(
        bad(2_002, { role: 'assistant', status: 'unheard-of', text: null, reasoning: 7, model: [], tokens: 'many' }),
      );
      m.put(
        bad(2_003, {
          role: 'user',
          status: 'sent',
          text: 'media is a string',
          media: 'not a list',
          reply_to: { id: 1 },
        }),
      );
      m.put(bad(2_004, { role: 'assistant', status: 'streaming', text: ['an', 'array'], turn: 5 }));
      m.put(bad(2_005, { role: 'assistant', status: 'final', text: 'ts is wrong', media: [null, 5, { media_id: 7 }] }));
      m.put({
        message_id: 'bad-nots',
        lane,
        chat_id: lane,
        ts: '2024-01-01' as unknown as number,
        role: 'assistant',
        status: 'final',
        text: 'ts is a string',
      });
      tx.objectStore('channels').put({
        chat_id: 'web:broken',
        name: null,
        kind: 5,
        order: 'x',
        icon: { a: 1 },
        color: 99,
      });
      tx.objectStore('channels').put({ chat_id: 'web:broken2', name: { toString: 1 }, kind: 'channel', order: 2 });
      tx.objectStore('lanes').put({ lane, readTs: 'yesterday', busy: 'yes', typing: 3, turnSeq: null, turn: 9 });
      tx.objectStore('toasts').put({ kind: 7, title: { t: 1 }, body: null, ts: 'now' });
      tx.objectStore('pickers').put({
        picker_id: 'bad-picker',
        lane,
        type: 'picker.choice',
        payload: null,
        state: 'open',
        ts: 1,
      });
      tx.objectStore('activity').put({
        id: 'bad-activity',
        lane,
        turn: `${lane}#1`,
        kind: 'tool',
        ts: 'x',
        order: null,
        name: 5,
        notes: 'n',
        args: 3,
      });
      tx.objectStore('media').put({
        media_id: 'bad-media',
        kind: 'image',
        mime: 5,
        size: 'big',
        filename: null,
        lane,
        message_id: 'bad-2003',
        state: 'ready',
        lastUsed: 'x',
      });
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
    db.close();
  }, LANE);

  for (const step of ['live', 'after reload']) {
    if (step === 'after reload') await page.reload();
    // The picker whose payload was unreadable shows as an empty question the person can close.
    if (await page.getByRole('dialog').isVisible()) await page.keyboard.press('Escape');
    const log = page.getByRole('log', { name: 'Messages' });
    await expect(log.getByText('a good message before'), step).toBeVisible();
    await expect(log.getByText('a good message after'), step).toBeVisible();
    if (step === 'after reload') {
      // The broken rows show what could be read of them (written behind Dexie's back, they appear on reload).
      await expect(log.getByText('role is an object')).toBeVisible();
      await expect(log.getByText('media is a string')).toBeVisible();
    }
    await expect(
      page.getByRole('navigation', { name: 'Channels' }).getByRole('link', { name: /^General/ }),
      step,
    ).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Message' }), step).toBeEditable();
  }
  // The other screens too.
  for (const path of ['/#/settings', '/#/search', `/#/c/${encodeURIComponent('web:broken')}`]) {
    await page.goto(hostile.origin + path);
    await expect(page.getByRole('main'), path).toBeVisible();
    // The screen's own content, not the chrome around it (the channel list alone would pass a length check).
    await expect(page.getByRole('main').getByRole('heading').first(), `${path} has no heading`).toBeVisible();
    expect((await page.getByRole('main').innerText()).trim().length, `${path} is blank`).toBeGreaterThan(5);
  }
  // Still working: a message sent now goes out.
  await page.goto(`${hostile.origin}/#/c/${encodeURIComponent(LANE)}`);
  await expect(page.getByRole('log', { name: 'Messages' }).getByText('a good message after')).toBeVisible();
  if (await page.getByRole('dialog').isVisible()) await page.keyboard.press('Escape');
  await page.getByRole('textbox', { name: 'Message' }).fill('still works');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('log', { name: 'Messages' }).getByText('still works')).toBeVisible();
  expect(errors, 'uncaught errors in the page').toEqual([]);
});
