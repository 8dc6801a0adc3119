// Issue 6: media both ways against the demo gateway — attachments (picker, paste, voice), the
// service worker's /media/<id> (Range, offline), background pulls, limits, a cut upload, eviction.
import AxeBuilder from '@axe-core/playwright';
import { createHash, randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { makePng } from '../server/gateway/agent/png';
import { CHROMIUM_ARGS, chromiumExecutable } from './browser';
import {
  expect,
  type IrisServer,
  LANE,
  launchServer,
  messageBox,
  messages,
  pair,
  routeGateway,
  storeRows,
  test,
} from './support';

const MiB = 1024 * 1024;
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

const userMessages = (page: Page) => messages(page).locator('article.msg-user');

// Chromium's fake microphone (a beep) for the voice test; a browser option, so for the whole file.
test.use({
  launchOptions: {
    executablePath: chromiumExecutable(),
    args: [
      ...CHROMIUM_ARGS,
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      '--autoplay-policy=no-user-gesture-required',
    ],
  },
});

/** Paired, on the default lane, with the service worker in control (it answers /media/…). */
async function ready(page: Page, iris: IrisServer): Promise<void> {
  await pair(page, iris);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 15_000 });
  await page.goto(`${iris.baseURL}/#/c/${encodeURIComponent(LANE)}`);
  await expect(messageBox(page)).toBeVisible();
}

/** Asks the demo agent for its picture (64×64) and waits until it shows. */
async function agentPicture(page: Page): Promise<{ reply: Locator; img: Locator }> {
  await messageBox(page).fill('/image');
  await messageBox(page).press('Enter');
  const reply = messages(page).locator('article.msg-assistant').filter({ hasText: 'Here is an image' });
  const img = reply.locator('.media[data-kind="image"] img');
  await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.naturalWidth), { timeout: 15_000 }).toBe(64);
  return { reply, img };
}

async function attachThroughPicker(
  page: Page,
  files: { name: string; mimeType: string; buffer: Buffer }[],
): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Attach' }).click();
  await (await chooser).setFiles(files);
}

async function paste(page: Page, file: { name: string; type: string; bytes: number[] }): Promise<void> {
  await messageBox(page).evaluate((box, f) => {
    const data = new DataTransfer();
    data.items.add(new File([new Uint8Array(f.bytes)], f.name, { type: f.type }));
    box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, file);
}

/** The gateway's stored user messages of the lane. */
const storedUser = (iris: IrisServer) => iris.server.gateway!.store.messages(LANE).filter((m) => m.role === 'user');

/** Media ids shown in a message (data-media-id of each media view). */
async function mediaIds(article: ReturnType<Page['locator']>): Promise<string[]> {
  return article.locator('.media').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.mediaId!));
}

test.describe('sending', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('an image through the file chooser and one pasted go in one message; both show through /media/ and the gateway has the same bytes', async ({
    page,
    iris,
  }) => {
    await ready(page, iris);
    const chosen = makePng('chosen picture', 64);
    const pasted = makePng('pasted picture', 48);
    await attachThroughPicker(page, [{ name: 'chosen.png', mimeType: 'image/png', buffer: chosen }]);
    await paste(page, { name: 'image.png', type: 'image/png', bytes: [...pasted] });
    const chips = page.getByRole('list', { name: 'Attachments' }).getByRole('listitem');
    await expect(chips).toHaveCount(2);
    await expect(chips.first()).toContainText('chosen.png');
    await expect(chips.first().locator('img')).toHaveJSProperty('complete', true);
    await messageBox(page).fill('two pictures');
    await page.getByRole('button', { name: 'Send' }).click();

    const bubble = userMessages(page).filter({ hasText: 'two pictures' });
    await expect(bubble.locator('img')).toHaveCount(2);
    await expect(async () => {
      const shown = await bubble.locator('img').evaluateAll((imgs) =>
        imgs.map((i) => ({
          src: (i as HTMLImageElement).getAttribute('src'),
          w: (i as HTMLImageElement).naturalWidth,
        })),
      );
      expect(shown.every((s) => s.src!.startsWith('/media/med_') && s.w > 0)).toBe(true);
    }).toPass();
    const stored = storedUser(iris).find((m) => m.text === 'two pictures')!;
    expect(stored.media).toHaveLength(2);
    const records = stored.media!.map((m) => iris.server.gateway!.store.media.get(m.media_id)!);
    expect(records.map((r) => [r.kind, r.sha256])).toEqual([
      ['image', sha(chosen)],
      ['image', sha(pasted)],
    ]);
    // What the page shows is what the gateway stored (served by the worker from IndexedDB). The bubble
    // is re-rendered when the gateway's echo replaces the pending one: read its files once they are there.
    await expect(bubble.locator('.media')).toHaveCount(2);
    const served = await page.evaluate(
      async (ids) => {
        const out: string[] = [];
        for (const id of ids) {
          const res = await fetch(`/media/${id}`);
          const hash = await crypto.subtle.digest('SHA-256', await res.arrayBuffer());
          out.push(Array.from(new Uint8Array(hash), (b) => b.toString(16).padStart(2, '0')).join(''));
        }
        return out;
      },
      await mediaIds(bubble),
    );
    expect(served).toEqual([sha(chosen), sha(pasted)]);
  });
});

test.describe('sending, more', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('a 25 MiB file is refused in words before anything starts; the text stays and nothing is sent', async ({
    page,
    iris,
  }) => {
    await ready(page, iris);
    await messageBox(page).fill('with a big file');
    await attachThroughPicker(page, [
      { name: 'big.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(25 * MiB, 1) },
    ]);
    await expect(page.getByRole('alert')).toHaveText('“big.bin” is 25 MB; attachments can be at most 20 MB.');
    await expect(messageBox(page)).toHaveValue('with a big file');
    await expect(page.getByRole('list', { name: 'Attachments' })).toHaveCount(0);
    // Nothing sent: proved after a later message has gone all the way to the gateway (anything the
    // refused file had started would have gone before it).
    await messageBox(page).fill('a later message');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => storedUser(iris).map((m) => m.text), { timeout: 15_000 }).toEqual(['a later message']);
    await expect(userMessages(page).filter({ hasText: 'with a big file' })).toHaveCount(0);
    expect(iris.server.gateway!.store.media.list()).toHaveLength(0);
    expect(
      await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const open = indexedDB.open('iris');
            open.onsuccess = () => {
              const count = open.result.transaction('mediaBlobs').objectStore('mediaBlobs').count();
              count.onsuccess = () => resolve(count.result);
            };
          }),
      ),
    ).toBe(0);
  });

  test('a 3 MiB video is served by the worker with Range: bytes=1000-1999 → 206 and exactly those bytes', async ({
    page,
    iris,
  }) => {
    await ready(page, iris);
    const bytes = randomBytes(3 * MiB);
    await attachThroughPicker(page, [{ name: 'clip.mp4', mimeType: 'video/mp4', buffer: bytes }]);
    await page.getByRole('button', { name: 'Send' }).click();
    const bubble = userMessages(page).last();
    const media = bubble.locator('.media[data-kind="video"][data-state="ready"]');
    await expect(media).toHaveAttribute('data-media-id', /^med_/);
    const id = (await media.getAttribute('data-media-id'))!;
    const answer = await page.evaluate(async (mediaId) => {
      const res = await fetch(`/media/${mediaId}`, { headers: { Range: 'bytes=1000-1999' } });
      return {
        status: res.status,
        range: res.headers.get('Content-Range'),
        type: res.headers.get('Content-Type'),
        body: Array.from(new Uint8Array(await res.arrayBuffer())),
      };
    }, id);
    expect(answer.status).toBe(206);
    expect(answer.range).toBe(`bytes 1000-1999/${bytes.length}`);
    expect(answer.type).toBe('video/mp4');
    expect(Buffer.from(answer.body).equals(bytes.subarray(1000, 2000))).toBe(true);
    const beyond = await page.evaluate(
      async (mediaId) => (await fetch(`/media/${mediaId}`, { headers: { Range: 'bytes=99999999-' } })).status,
      id,
    );
    expect(beyond).toBe(416);
  });

  test('a connection dropped mid-upload: after reconnecting the upload starts over and completes once', async ({
    page,
    iris,
  }) => {
    // The page's socket goes through a relay that cuts the first connection after two upload chunks.
    let cut = false;
    let binary = 0;
    await page.routeWebSocket(/\/ws$/, (ws) => {
      const server = ws.connectToServer();
      const first = !cut;
      ws.onMessage((message) => {
        if (first && typeof message !== 'string' && ++binary === 2) {
          cut = true;
          void ws.close({ code: 1006 }).catch(() => undefined);
          void server.close().catch(() => undefined);
          return;
        }
        server.send(message);
      });
      server.onMessage((message) => ws.send(message));
    });
    await ready(page, iris);
    const bytes = randomBytes(6 * MiB);
    await attachThroughPicker(page, [{ name: 'report.pdf', mimeType: 'application/pdf', buffer: bytes }]);
    await messageBox(page).fill('sent through a cut');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => cut, { timeout: 15_000 }).toBe(true);
    await expect
      .poll(() => storedUser(iris).filter((m) => m.text === 'sent through a cut').length, { timeout: 30_000 })
      .toBe(1);
    const records = iris.server.gateway!.store.media.list().filter((r) => r.ref !== undefined);
    expect(records).toHaveLength(1);
    expect(records[0]!.sha256).toBe(sha(bytes));
    // Sent once and no more: once the outbox is empty the app has nothing left to send again.
    await expect.poll(async () => (await storeRows(page, 'outbox')).length, { timeout: 15_000 }).toBe(0);
    expect(storedUser(iris).filter((m) => m.text === 'sent through a cut')).toHaveLength(1);
    const bubble = userMessages(page).filter({ hasText: 'sent through a cut' });
    await expect(bubble).toHaveCount(1);
    await expect(bubble.getByRole('link', { name: 'Save report.pdf' })).toBeVisible();
  });
});

test.describe('voice', () => {
  test.use({ viewport: { width: 1280, height: 800 }, permissions: ['microphone'] });

  test('a recorded voice message shows its length while recording, is sent as kind voice, and plays', async ({
    page,
    iris,
  }) => {
    await ready(page, iris);
    // Cancelled: nothing is kept.
    await page.getByRole('button', { name: 'Record voice message' }).click();
    await page.getByRole('button', { name: 'Cancel recording' }).click();
    await expect(page.getByRole('button', { name: 'Record voice message' })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Attachments' })).toHaveCount(0);

    await page.getByRole('button', { name: 'Record voice message' }).click();
    const recording = page.getByRole('group', { name: 'Recording a voice message' });
    await expect(recording.getByRole('timer')).toHaveText('0:01', { timeout: 5000 });
    await expect(recording.getByRole('timer')).toHaveText('0:02', { timeout: 5000 });
    await recording.getByRole('button', { name: 'Finish recording' }).click();
    const chip = page.getByRole('list', { name: 'Attachments' }).getByRole('listitem');
    await expect(chip).toContainText('Voice message');
    await page.getByRole('button', { name: 'Send' }).click();

    await expect.poll(() => storedUser(iris).at(-1)?.media?.[0]?.kind, { timeout: 15_000 }).toBe('voice');
    const stored = storedUser(iris).at(-1)!.media![0]!;
    expect(stored.mime).toMatch(/^audio\//);
    expect(stored.size).toBeGreaterThan(1000);

    const bubble = userMessages(page).last();
    const play = bubble.getByRole('button', { name: 'Play voice message' });
    await expect(play).toBeVisible();
    await expect(bubble.locator('.media')).toHaveAttribute('data-media-id', /^med_/);
    // Its length is known (WebM from MediaRecorder carries none until the player learns it).
    await expect(bubble.locator('.audio-time')).toHaveText(/^0:00 \/ 0:0[2-4]$/);
    const duration = await bubble.locator('audio').evaluate((a: HTMLAudioElement) => a.duration);
    expect(Number.isFinite(duration) && duration > 1).toBe(true);
    await play.click();
    await expect(bubble.getByRole('button', { name: 'Pause voice message' })).toBeVisible();
    await expect
      .poll(() => bubble.locator('audio').evaluate((a: HTMLAudioElement) => a.currentTime))
      .toBeGreaterThan(0.2);
  });

  test('on a desktop, the attached files line up with the message box, in the conversation’s column', async ({
    page,
    iris,
  }) => {
    await ready(page, iris);
    await attachThroughPicker(page, [
      { name: 'Gym schedule (winter).pdf', mimeType: 'application/pdf', buffer: randomBytes(48_000) },
    ]);
    const chips = page.getByRole('list', { name: 'Attachments' });
    await expect(chips.getByRole('listitem')).toHaveCount(1);
    const list = (await chips.boundingBox())!;
    const box = (await page.locator('.composer-row').boundingBox())!;
    expect(Math.abs(list.x - box.x)).toBeLessThan(2);
    // Alone, the chip shows the whole name.
    expect(await chips.locator('.chip-name').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  });
});

test.describe('receiving', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("the agent's offered image is pulled in the background and shown; offline after a reload it still shows", async ({
    page,
    context,
    iris,
  }) => {
    await ready(page, iris);
    const { reply, img } = await agentPicture(page);
    await expect(img).toHaveAttribute('src', /^\/media\/med_/);
    // The box was reserved at the picture's own proportions.
    const box = await reply.locator('.media-image').boundingBox();
    expect(Math.abs(box!.width - box!.height)).toBeLessThan(2);

    await context.setOffline(true);
    await page.reload();
    await expect(img).toBeVisible();
    await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(64);
  });

  test('a picture that fails to show says so with Try again, and shows once its bytes are good again', async ({
    page,
    iris,
  }) => {
    await ready(page, iris);
    const { reply, img } = await agentPicture(page);
    const id = await reply.locator('.media[data-kind="image"]').getAttribute('data-media-id');
    const filename = await img.getAttribute('alt');

    // Its stored bytes go bad (a write cut short): put in their place something that is no picture.
    const putBytes = (bytes: number[] | null) =>
      page.evaluate(
        async ([mediaId, replacement]) => {
          const db = await new Promise<IDBDatabase>((resolve, reject) => {
            const req = indexedDB.open('iris');
            req.onsuccess = () => resolve(req.result);
            req.onerror = () => reject(req.error);
          });
          try {
            const store = db.transaction('mediaBlobs', 'readwrite').objectStore('mediaBlobs');
            const old = await new Promise<{ blob: Blob }>((resolve, reject) => {
              const req = store.get(mediaId!);
              req.onsuccess = () => resolve(req.result as { blob: Blob });
              req.onerror = () => reject(req.error);
            });
            const blob = new Blob([new Uint8Array(replacement ?? [...new TextEncoder().encode('not a picture')])], {
              type: 'image/png',
            });
            const bytes = [...new Uint8Array(await old.blob.arrayBuffer())];
            const write = db.transaction('mediaBlobs', 'readwrite').objectStore('mediaBlobs');
            await new Promise((resolve, reject) => {
              const req = write.put({ media_id: mediaId, blob });
              req.onsuccess = resolve;
              req.onerror = () => reject(req.error);
            });
            return bytes;
          } finally {
            db.close();
          }
        },
        [id, bytes] as const,
      );
    const good = await putBytes(null);
    await page.reload();
    // Tried once more by itself, then said in words, with a way to try again.
    await expect(reply.getByText('This picture cannot be shown.')).toBeVisible({ timeout: 10_000 });
    const tryAgain = reply.getByRole('button', { name: `Try again to show ${filename}` });
    await expect(tryAgain).toBeVisible();
    // Inside the picture's box, on one line: the demo's 64 px drawing has a box of only 128 px.
    const box = (await reply.locator('.media-image.placeholder').boundingBox())!;
    const button = (await tryAgain.boundingBox())!;
    expect(button.x).toBeGreaterThanOrEqual(box.x);
    expect(button.x + button.width).toBeLessThanOrEqual(box.x + box.width);
    expect(button.y + button.height).toBeLessThanOrEqual(box.y + box.height);
    expect(button.height).toBeLessThan(48);

    await putBytes(good);
    await tryAgain.click();
    await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBe(64);
    await expect(reply.getByText('This picture cannot be shown.')).toHaveCount(0);
  });

  test('with a small cache cap the oldest files are evicted, messages stay, and "Download again" brings one back', async ({
    page,
    iris,
  }) => {
    test.setTimeout(180_000);
    await ready(page, iris);
    await page.getByRole('button', { name: 'Settings' }).click();
    const section = page.getByRole('region', { name: 'Media' });
    await section.getByLabel('Keep at most').selectOption({ label: '10 MB' });
    await page.goBack();
    await expect(messageBox(page)).toBeVisible();
    const files = ['first.bin', 'second.bin', 'third.bin'];
    for (const name of files) {
      await attachThroughPicker(page, [{ name, mimeType: 'application/octet-stream', buffer: randomBytes(4 * MiB) }]);
      await messageBox(page).fill(`file ${name}`);
      await page.getByRole('button', { name: 'Send' }).click();
      // 4 MiB each way on a shared 2-core machine: give the upload time.
      await expect(
        userMessages(page)
          .filter({ hasText: `file ${name}` })
          .getByRole('link', { name: `Save ${name}` }),
      ).toBeVisible({ timeout: 45_000 });
    }
    const first = userMessages(page).filter({ hasText: 'file first.bin' });
    await expect(first.getByRole('button', { name: /^Download again, .*, first\.bin$/ })).toBeVisible();
    for (const name of files) await expect(userMessages(page).filter({ hasText: `file ${name}` })).toHaveCount(1);
    await expect(
      userMessages(page).filter({ hasText: 'file third.bin' }).getByRole('link', { name: 'Save third.bin' }),
    ).toBeVisible();

    await first.getByRole('button', { name: /^Download again, .*, first\.bin$/ }).click();
    await expect(first.getByRole('link', { name: 'Save first.bin' })).toBeVisible({ timeout: 15_000 });
    // A file on screen is never evicted, so the trim after this pull spares second.bin and third.bin when
    // they show near first.bin (where the click scrolled to decides it): the cache may stay over the cap
    // until the next trim. The app's start trims with nothing on screen: the cap holds after a reload.
    await page.getByRole('button', { name: 'Settings' }).click();
    const media = page.getByRole('region', { name: 'Media' });
    await expect(media).toBeVisible();
    await page.reload();
    await expect(media.locator('.media-cache-size')).toHaveText('8 MB');
    const axe = await new AxeBuilder({ page }).include('section:has(.media-cache-size)').analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    await media.getByRole('button', { name: 'Clear media cache' }).click();
    await expect(media.locator('.media-cache-size')).toHaveText('0 bytes');
    await page.goBack();
    for (const name of files) {
      const bubble = userMessages(page).filter({ hasText: `file ${name}` });
      await expect(bubble.getByRole('button', { name: /^Download again, / })).toBeVisible();
    }
  });
});

test.describe('two devices, offline', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('another device gets a small picture by itself, a large file on a tap with progress, and the worker fetches on demand', async ({
    page,
    browser,
    iris,
  }) => {
    await ready(page, iris);
    const picture = makePng('from the phone', 64);
    const report = randomBytes(6 * MiB);
    const notes = randomBytes(300_000);
    await attachThroughPicker(page, [
      { name: 'picture.png', mimeType: 'image/png', buffer: picture },
      { name: 'report.pdf', mimeType: 'application/pdf', buffer: report },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: notes },
    ]);
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => storedUser(iris).at(-1)?.media?.length ?? 0, { timeout: 15_000 }).toBe(3);
    const [pictureRef, reportRef, notesRef] = storedUser(iris).at(-1)!.media!;

    const other = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const second = await other.newPage();
    const pulls: string[] = [];
    // Its downloads come in slowly (in order), so the progress can be seen.
    await second.routeWebSocket(/\/ws$/, (ws) => {
      const server = ws.connectToServer();
      let chain = Promise.resolve();
      server.onMessage((message) => {
        const wait = typeof message === 'string' ? 0 : 60;
        chain = chain.then(() => new Promise((resolve) => setTimeout(resolve, wait))).then(() => ws.send(message));
      });
      ws.onMessage((message) => {
        if (typeof message === 'string' && message.includes('"media.pull"')) pulls.push(message);
        server.send(message);
      });
    });
    try {
      await ready(second, iris);
      const bubble = userMessages(second).last();
      // The picture came by itself; the PDF waits for a tap.
      await expect(bubble.locator('img')).toHaveJSProperty('naturalWidth', 64, { timeout: 15_000 });
      const download = bubble.getByRole('button', { name: /^Download, .*, report\.pdf$/ });
      await expect(download).toBeVisible();
      // The picture's pull has come back, so the app has decided what to fetch by itself for this
      // message; it did not ask for the PDF.
      expect(pulls.some((frame) => frame.includes(reportRef!.media_id))).toBe(false);
      await expect(download).toBeVisible();
      expect(
        await second.evaluate(
          (id) => document.querySelector(`.media[data-media-id="${id}"]`)?.getAttribute('data-state'),
          reportRef!.media_id,
        ),
      ).toBe('remote');
      // A tap: a progress bar, then the file, saved under its name.
      await download.click();
      await expect(bubble.getByRole('progressbar', { name: 'Downloading report.pdf' })).toBeVisible();
      await expect(bubble.getByRole('link', { name: 'Save report.pdf' })).toBeVisible({ timeout: 15_000 });
      const served = await second.evaluate(async (id) => {
        const res = await fetch(`/media/${id}`);
        const hash = await crypto.subtle.digest('SHA-256', await res.arrayBuffer());
        return {
          disposition: res.headers.get('Content-Disposition'),
          sha: Array.from(new Uint8Array(hash), (b) => b.toString(16).padStart(2, '0')).join(''),
        };
      }, reportRef!.media_id);
      expect(served).toEqual({ disposition: 'attachment; filename="report.pdf"', sha: sha(report) });
      // Not downloaded yet: the worker asks the window to pull it and answers when the bytes are here.
      const onDemand = await second.evaluate(async (id) => {
        const res = await fetch(`/media/${id}`);
        return { status: res.status, size: (await res.arrayBuffer()).byteLength };
      }, notesRef!.media_id);
      expect(onDemand).toEqual({ status: 200, size: notes.length });
      expect(pictureRef!.kind).toBe('image');
    } finally {
      await other.close();
    }
  });

  test('attached and sent offline, then reloaded: it goes out once when the gateway is back', async ({
    page,
    iris,
  }) => {
    await ready(page, iris);
    const port = Number(new URL(iris.baseURL).port);
    await iris.server.close();
    await expect(page.getByText(/^(Offline|Reconnecting)/).first()).toBeVisible({ timeout: 15_000 });
    const bytes = makePng('offline', 64);
    await attachThroughPicker(page, [{ name: 'offline.png', mimeType: 'image/png', buffer: bytes }]);
    await messageBox(page).fill('written offline');
    await page.getByRole('button', { name: 'Send' }).click();
    const pending = userMessages(page).filter({ hasText: 'written offline' });
    await expect(pending.getByRole('status').filter({ hasText: 'Sends when connected.' })).toBeVisible();
    await page.reload();
    await expect(pending.locator('img')).toHaveJSProperty('complete', true);
    const back = await launchServer({ port, dataDir: iris.dataDir, token: iris.token });
    try {
      await expect
        .poll(() => back.server.gateway!.store.messages(LANE).filter((m) => m.text === 'written offline').length, {
          timeout: 30_000,
        })
        .toBe(1);
      const stored = back.server.gateway!.store.messages(LANE).find((m) => m.text === 'written offline')!;
      expect(back.server.gateway!.store.media.get(stored.media![0]!.media_id)!.sha256).toBe(sha(bytes));
      await expect(pending.locator('img')).toHaveAttribute('src', /^\/media\/med_/, { timeout: 15_000 });
      // Stored once and no more: once the outbox is empty the app has nothing left to send again.
      await expect.poll(async () => (await storeRows(page, 'outbox')).length, { timeout: 15_000 }).toBe(0);
      expect(back.server.gateway!.store.messages(LANE).filter((m) => m.text === 'written offline')).toHaveLength(1);
      expect(back.server.gateway!.store.media.list().filter((r) => r.ref !== undefined)).toHaveLength(1);
    } finally {
      await back.server.close();
    }
  });

  test('a file on its way shows its upload progress; Cancel stops it and nothing is sent', async ({ page, iris }) => {
    // The gateway's ack for the upload is held back, so the message stays on its way.
    await routeGateway(page, { holdUploadAcks: true });
    await ready(page, iris);
    await attachThroughPicker(page, [
      { name: 'held.bin', mimeType: 'application/octet-stream', buffer: randomBytes(2 * MiB) },
    ]);
    await messageBox(page).fill('never sent');
    await page.getByRole('button', { name: 'Send' }).click();
    const bubble = userMessages(page).filter({ hasText: 'never sent' });
    await expect(bubble.getByRole('progressbar', { name: 'Uploading held.bin' })).toHaveAttribute('value', '100');
    // Every byte sent, the gateway's answer outstanding: said as such, not "Uploading… 100%" for ever.
    await expect(bubble.getByRole('status')).toHaveText('Waiting for the gateway…');
    await bubble.getByRole('button', { name: 'Cancel upload of held.bin' }).click();
    await expect(bubble).toHaveCount(0);
    await messageBox(page).fill('after the cancel');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => storedUser(iris).map((m) => m.text), { timeout: 10_000 }).toEqual(['after the cancel']);
  });

  test('files dropped onto the lane are attached', async ({ page, iris }) => {
    await ready(page, iris);
    await messages(page).evaluate((target) => {
      const data = new DataTransfer();
      data.items.add(new File(['hello'], 'dropped.txt', { type: 'text/plain' }));
      for (const type of ['dragenter', 'dragover', 'drop']) {
        target.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
      }
    });
    await expect(page.getByRole('list', { name: 'Attachments' }).getByRole('listitem')).toContainText('dropped.txt');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => storedUser(iris).at(-1)?.media?.[0]?.filename, { timeout: 15_000 }).toBe('dropped.txt');
  });
});

test.describe('phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('a picture I send sits inside my bubble, with the bubble’s own margin on both sides', async ({ page, iris }) => {
    await ready(page, iris);
    await page
      .locator('input[type="file"][multiple]')
      .setInputFiles([{ name: 'wide.png', mimeType: 'image/png', buffer: makePng('wide', 400) }]);
    await expect(page.getByRole('list', { name: 'Attachments' })).toContainText('wide.png');
    await messageBox(page).fill('a wide picture');
    await page.getByRole('button', { name: 'Send' }).click();
    const sent = messages(page)
      .getByRole('article', { name: /^You, / })
      .filter({ hasText: 'a wide picture' });
    await expect(sent.locator('[data-delivery="sent"], [data-delivery="read"]')).toBeVisible();
    await expect(sent.locator('.media-image img')).toBeVisible();
    // Measured together, in one frame: 12 px of padding each side of the bubble.
    const margins = await sent.locator('.bubble').evaluate((bubble) => {
      const b = bubble.getBoundingClientRect();
      const p = bubble.querySelector('.media-image')!.getBoundingClientRect();
      return { left: Math.round(p.left - b.left), right: Math.round(b.right - p.right) };
    });
    expect(margins).toEqual({ left: 12, right: 12 });
  });

  test('Attach offers the camera or files; the camera input asks for a photo or video', async ({ page, iris }) => {
    await ready(page, iris);
    await page.getByRole('button', { name: 'Attach' }).click();
    const menu = page.getByRole('menu');
    await expect(menu.getByRole('menuitem', { name: 'Take a photo or video' })).toBeVisible();
    await page.screenshot({ path: '/tmp/media-phone-attach-menu.png' });
    const camera = page.locator('input[type="file"][capture]');
    await expect(camera).toHaveAttribute('capture', 'environment');
    await expect(camera).toHaveAttribute('accept', 'image/*,video/*');
    const chooser = page.waitForEvent('filechooser');
    await menu.getByRole('menuitem', { name: 'Choose files' }).click();
    const files = await chooser;
    expect(files.isMultiple()).toBe(true);
    await files.setFiles([{ name: 'a.png', mimeType: 'image/png', buffer: makePng('phone', 64) }]);
    await expect(page.getByRole('list', { name: 'Attachments' })).toContainText('a.png');
  });

  test('the Attach menu takes the focus, moves with the arrow keys, and Escape closes it back to Attach', async ({
    page,
    iris,
  }) => {
    await ready(page, iris);
    const attach = page.getByRole('button', { name: 'Attach' });
    await attach.click();
    const menu = page.getByRole('menu');
    const camera = menu.getByRole('menuitem', { name: 'Take a photo or video' });
    await expect(camera).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(menu.getByRole('menuitem', { name: 'Choose files' })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(camera).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(attach).toBeFocused();
    await expect(attach).toHaveAttribute('aria-expanded', 'false');
    // Escape with the focus still on Attach (a tap opens the menu without moving it there on some phones).
    await attach.click();
    await expect(menu).toBeVisible();
    await attach.focus();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    // The browser's close request (Android's Back; Escape with the focus nowhere in the menu) closes it,
    // and leaves the page where it is.
    const url = page.url();
    await attach.click();
    await expect(menu).toBeVisible();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    expect(page.url()).toBe(url);
  });
});

test.describe('viewer', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('pictures open full screen: arrow keys step through them, zoom, download, Escape closes and focus returns; no serious axe findings', async ({
    page,
    iris,
  }) => {
    await ready(page, iris);
    await attachThroughPicker(page, [
      { name: 'one.png', mimeType: 'image/png', buffer: makePng('one', 64) },
      { name: 'two.png', mimeType: 'image/png', buffer: makePng('two', 64) },
    ]);
    await page.getByRole('button', { name: 'Send' }).click();
    const bubble = userMessages(page).last();
    await expect(bubble.locator('.media[data-state="ready"]')).toHaveCount(2);
    const opener = bubble.getByRole('button', { name: 'Open picture one.png' });
    await opener.click();
    const viewer = page.getByRole('dialog', { name: 'Picture viewer: one.png' });
    await expect(viewer).toBeVisible();
    await expect(viewer).toContainText('1 of');
    await expect(viewer.locator('img')).toHaveJSProperty('naturalWidth', 64);
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('dialog', { name: 'Picture viewer: two.png' })).toContainText('2 of');
    await page.keyboard.press('ArrowLeft');
    await expect(viewer).toBeVisible();
    const before = (await viewer.locator('img').boundingBox())!.width;
    await viewer.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(async () => (await viewer.locator('img').boundingBox())!.width).toBeGreaterThan(before * 1.4);
    await expect(viewer.getByRole('link', { name: /^Download one\.png/ })).toHaveAttribute('download', 'one.png');
    const axe = await new AxeBuilder({ page }).include('.image-viewer').analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(opener).toBeFocused();
  });
});

test.describe('looks', () => {
  test.use({ viewport: { width: 390, height: 844 }, permissions: ['microphone'] });

  test('screenshots of chips, pictures, the viewer and a voice player (phone and desktop, light and dark)', async ({
    page,
    iris,
  }) => {
    test.setTimeout(120_000);
    await ready(page, iris);
    // A wide picture drawn in the page, pasted; a voice message; then the agent's picture.
    await messageBox(page).evaluate(async (box) => {
      const canvas = document.createElement('canvas');
      canvas.width = 480;
      canvas.height = 270;
      const g = canvas.getContext('2d')!;
      const grad = g.createLinearGradient(0, 0, 480, 270);
      grad.addColorStop(0, '#ff9a5a');
      grad.addColorStop(1, '#5a7dff');
      g.fillStyle = grad;
      g.fillRect(0, 0, 480, 270);
      const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/png'));
      const data = new DataTransfer();
      data.items.add(new File([blob], 'sunset.png', { type: 'image/png' }));
      box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await messageBox(page).fill('Look at this');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('button', { name: 'Record voice message' }).click();
    // Two seconds of voice, by the recorder's own clock.
    await expect(page.getByRole('timer')).toHaveText(/^0:0[2-9]$/, { timeout: 10_000 });
    await page.getByRole('button', { name: 'Finish recording' }).click();
    await expect(page.getByRole('list', { name: 'Attachments' })).toContainText('Voice message');
    await page.getByRole('button', { name: 'Send' }).click();
    // Once the agent is done with it (a message while it works would steer instead).
    await expect(messages(page).getByText(/Received: voice-.*\(voice, \d+ bytes\)/)).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeVisible();
    await messageBox(page).fill('/image');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(
      messages(page)
        .locator('article.msg-assistant')
        .filter({ hasText: 'Here is an image' })
        .locator('.media[data-state="ready"]'),
    ).toBeVisible({ timeout: 15_000 });
    await expect(messages(page).locator('.audio-time').last()).toHaveText(/\/ 0:0\d/);
    // Chips for the next message: a picture and a document.
    await attachThroughPicker(page, [
      { name: 'holiday-photo.png', mimeType: 'image/png', buffer: makePng('chip', 64) },
      { name: 'Quarterly report (final).pdf', mimeType: 'application/pdf', buffer: randomBytes(180_000) },
    ]);
    await expect(page.getByRole('list', { name: 'Attachments' }).getByRole('listitem')).toHaveCount(2);

    for (const [name, size] of [
      ['phone', { width: 390, height: 844 }],
      ['desktop', { width: 1280, height: 800 }],
    ] as const) {
      await page.setViewportSize(size);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        // Transitions run to their end for each picture (animations: 'disabled'), no pause needed.
        await page.screenshot({ path: `/tmp/media-${name}-${scheme}.png`, animations: 'disabled' });
        const axe = await new AxeBuilder({ page }).include('.composer').include('.message-media').analyze();
        expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
        await userMessages(page)
          .nth(1)
          .evaluate((el) => el.scrollIntoView({ block: 'center' }));
        await page.screenshot({ path: `/tmp/media-${name}-${scheme}-sent.png`, animations: 'disabled' });
        await messages(page).locator('.media-image').first().click();
        const viewer = page.getByRole('dialog', { name: /Picture viewer/ });
        await expect(viewer).toBeVisible();
        await page.screenshot({ path: `/tmp/media-${name}-${scheme}-viewer.png`, animations: 'disabled' });
        await page.keyboard.press('Escape');
        await expect(viewer).toHaveCount(0);
      }
    }
  });
});
