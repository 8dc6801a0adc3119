// Files a gateway offers, on a page no service worker controls (first visit, a hard reload, a browser
// without service workers): the app links to object URLs of the pulled bytes. Opened on its own (a new
// tab, a pasted link), a blob: URL is a page in the app's origin, so an SVG, HTML or XHTML file typed
// as the gateway said would run script with no CSP and could read the token from IndexedDB. Each link
// is opened in a new page here: a download starts, no script runs (a sentinel), and the in-app Save
// link still saves the file under its own name, byte for byte.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { openLane, pair } from '../support';
import { startHostile, type HostileSetup, type Json } from './hostile-gateway';

const LANE = 'web:default';

// What a working attack does: mark the origin's storage, then try to read the pairing token.
const STEAL = `localStorage.setItem('iris-pwned', String(document.contentType));
indexedDB.open('iris').onsuccess = function (e) {
  try {
    e.target.result.transaction('settings').objectStore('settings').get('token').onsuccess = function (r) {
      localStorage.setItem('iris-pwned-token', JSON.stringify(r.target.result));
    };
  } catch (err) { localStorage.setItem('iris-pwned-token', String(err)); }
};`;

const FILES = [
  {
    media_id: 'med-svg',
    kind: 'image',
    mime: 'image/svg+xml',
    filename: 'chart.svg',
    body: `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script><![CDATA[${STEAL}]]></script><rect width="10" height="10"/></svg>`,
  },
  {
    media_id: 'med-html',
    kind: 'document',
    mime: 'text/html',
    filename: 'report.html',
    body: `<!doctype html><title>report</title><script>${STEAL}</script><p>report</p>`,
  },
  {
    media_id: 'med-xhtml',
    kind: 'document',
    mime: 'application/xhtml+xml',
    filename: 'page.xhtml',
    body: `<html xmlns="http://www.w3.org/1999/xhtml"><head><title>x</title><script><![CDATA[${STEAL}]]></script></head><body><p>x</p></body></html>`,
  },
];

let hostile: HostileSetup;

test.use({ serviceWorkers: 'block' });

test.afterEach(async () => {
  await hostile?.close();
});

const sentinel = (page: Page) =>
  page.evaluate(() => [localStorage.getItem('iris-pwned'), localStorage.getItem('iris-pwned-token')]);

test('without a service worker, offered SVG/HTML/XHTML files open as downloads in a new page and run nothing', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  hostile = await startHostile({
    onRequest(frame, reply) {
      if (frame.type !== 'media.pull') return false;
      const file = FILES.find((f) => f.media_id === (frame.payload as Json).media_id);
      if (file) hostile.gateway.emit(Buffer.from(file.body));
      reply({ type: 'media.pull.end', id: frame.id, payload: { ok: !!file } });
      return true;
    },
  });
  // Pairing lands in the default channel; the "Connected" line it passes through may be gone by then.
  await pair(page, hostile);
  await openLane(page, hostile);
  expect(
    await page.evaluate(() => navigator.serviceWorker?.controller ?? null),
    'no service worker controls the page',
  ).toBeNull();

  hostile.gateway.emit({
    type: 'message',
    chat_id: LANE,
    payload: {
      message_id: 'files',
      role: 'assistant',
      text: 'Here are the files.',
      ts: Date.now(),
      media: FILES.map(({ body, ...ref }) => ({ ...ref, size: Buffer.byteLength(body) })),
    },
  });
  const log = page.getByRole('log', { name: 'Messages' });
  await expect(log.getByText('Here are the files.')).toBeVisible();

  for (const file of FILES) {
    const item = log.locator(`[data-media-id="${file.media_id}"]`);
    // Whatever the gateway called it, a file that can hold script is a document to save, never shown inline.
    await expect(item, `${file.filename} is a document`).toHaveAttribute('data-kind', 'document');
    await item.getByRole('button', { name: /^Download, / }).click();
    const save = item.getByRole('link', { name: `Save ${file.filename}` });
    await expect(save).toHaveAttribute('href', /^blob:/);
    const url = (await save.getAttribute('href'))!;

    // The link opened on its own, in a new page: the browser downloads the bytes instead of showing a page.
    const opened = await context.newPage();
    const downloaded = opened.waitForEvent('download', { timeout: 15_000 }).catch(() => null);
    await opened.goto(url).catch(() => undefined); // a download aborts the navigation
    const download = await downloaded;
    expect(await sentinel(page), `no script ran from ${file.filename}`).toEqual([null, null]);
    expect(download, `${file.filename} opened in a new page is a download`).not.toBeNull();
    expect(readFileSync((await download!.path())!, 'utf8')).toBe(file.body);
    await opened.close();

    // Saved from the app: under its own name, the same bytes.
    const [saved] = await Promise.all([page.waitForEvent('download'), save.click()]);
    expect(saved.suggestedFilename()).toBe(file.filename);
    expect(readFileSync((await saved.path())!, 'utf8')).toBe(file.body);
  }
  expect(await sentinel(page)).toEqual([null, null]);
});
