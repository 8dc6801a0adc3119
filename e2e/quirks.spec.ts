// Issue 14: the app against gateways that read the protocol differently, each reading the spec allows
// (server/gateway/quirks.ts). One test per quirk, driving the built app in Chromium and asserting what
// a person sees. The table in server/gateway/README.md says what the app does with each.
import { rmSync } from 'node:fs';
import type { Browser, Page, WebSocketRoute } from '@playwright/test';
import { makePng } from '../server/gateway/agent/png';
import type { GatewayQuirks } from '../server/gateway/quirks';
import {
  channelAction,
  channelsNav,
  DESKTOP,
  expect,
  expectLanded,
  hermes,
  type IrisServer,
  LANE,
  launchServer,
  messageBox,
  messages,
  mine,
  pageTitle,
  routeGateway,
  test,
} from './support';

test.use({ viewport: DESKTOP });

const servers: IrisServer[] = [];
test.afterEach(async () => {
  for (const iris of servers.splice(0)) {
    await iris.server.close();
    rmSync(iris.dataDir, { recursive: true, force: true });
  }
});

async function quirkyGateway(quirks: GatewayQuirks, streamDelayMs?: number): Promise<IrisServer> {
  const iris = await launchServer({ quirks, ...(streamDelayMs !== undefined && { streamDelayMs }) });
  servers.push(iris);
  return iris;
}

const toasts = (page: Page) => page.getByRole('list', { name: 'Notifications' });

/** No notice on screen now: counted at once, since an expectation that waits would see one fade (~8 s). */
async function expectNoNotice(page: Page): Promise<void> {
  expect(await toasts(page).locator('li').allInnerTexts()).toEqual([]);
}

/** Pairs by the link (landing in the default channel) and waits for the service worker (it serves /media/). */
async function pairWith(page: Page, iris: IrisServer, opts: { worker?: boolean } = {}): Promise<void> {
  await page.goto(iris.pairingLink);
  await expectLanded(page);
  if (opts.worker)
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 15_000 });
  await expect(messageBox(page)).toBeVisible();
}

async function send(page: Page, text: string): Promise<void> {
  await messageBox(page).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

/** The agent's echo reply to an ordinary message: proof the turn ran to its end. */
const echoReply = (page: Page, text: string) => hermes(page, `Echo: ${text}`).filter({ hasText: '— Iris demo agent' });

/** `count` messages of the last hour in `lane`'s stored history, oldest first, the person's and the agent's in turn. */
function seedHistory(iris: IrisServer, lane: string, count: number, text: (i: number) => string): void {
  const store = iris.server.gateway!.store;
  const t0 = Date.now() - 3_600_000;
  for (let i = 1; i <= count; i++) {
    store.conversations.append({ lane, role: i % 2 ? 'user' : 'assistant', text: text(i), ts: t0 + i * 1000 });
  }
  store.flush();
}

/** Scrolls the lane to its top until `text` shows: older pages load on the way. */
async function scrollUpTo(page: Page, text: string, timeout: number): Promise<void> {
  await expect(async () => {
    await messages(page).evaluate((el) => el.scrollTo(0, 0));
    await expect(messages(page).getByText(text, { exact: true })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout });
}

async function secondDevice(browser: Browser, iris: IrisServer): Promise<Page> {
  const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  await pairWith(page, iris);
  return page;
}

test('media ids = the app’s own media_ref: my picture shows, also after a reload', async ({ page }) => {
  const iris = await quirkyGateway({ mediaIdIsRef: true });
  await pairWith(page, iris, { worker: true });
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Attach' }).click();
  await (await chooser).setFiles([{ name: 'mine.png', mimeType: 'image/png', buffer: makePng('my own picture', 64) }]);
  await send(page, 'my own picture');
  const bubble = mine(page, 'my own picture');
  const img = bubble.locator('.media[data-kind="image"] img');
  const stored = () => iris.server.gateway!.store.messages(LANE).find((m) => m.text === 'my own picture');
  await expect.poll(() => stored()?.media?.[0]?.media_id).toBeTruthy();
  // The gateway named it by the app's own ref: not a med_… id of its own.
  expect(stored()!.media![0].media_id).not.toMatch(/^med_/);
  await expect(bubble.locator('[data-delivery]')).toHaveAttribute('data-delivery', /sent|read/);
  await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(64);
  await expect(bubble).not.toContainText('Loading…');
  await page.reload();
  await expect
    .poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth), { timeout: 15_000 })
    .toBe(64);
  await expect(bubble).not.toContainText('Loading…');
});

test('thread frames with only the thread’s own chat_id: the thread opens, the echo and the reply are in it', async ({
  page,
}) => {
  const iris = await quirkyGateway({ threadOwnChatId: true });
  await pairWith(page, iris);
  await send(page, '/thread quirky topic');
  // The auto-thread pulls the person into it, under its channel.
  await expect(page).toHaveURL(/#\/c\/web%3Adefault\/t\//, { timeout: 15_000 });
  await expect(mine(page, '/thread quirky topic')).toHaveCount(1);
  await expect(hermes(page, 'quirky topic').filter({ hasText: '— Iris demo agent' })).toBeVisible({ timeout: 15_000 });
  await expect(pageTitle(page)).toHaveText(/quirky topic/i);
  // Nothing of the thread landed in the channel itself.
  await page.goto(`${iris.baseURL}/#/c/${encodeURIComponent(LANE)}`);
  await expect(pageTitle(page)).toHaveText('General');
  await expect(mine(page, '/thread quirky topic')).toHaveCount(0);
});

test('no client_id in the echo: one bubble per stored message, never a phantom pending one, even for a repeat', async ({
  page,
}) => {
  const iris = await quirkyGateway({ noClientId: true });
  // The first echo of the message is lost with the connection, after the gateway stored it: the app
  // must send it again, and this gateway (no client_id) stores the repeat as a second message.
  let cut = false;
  await page.routeWebSocket(/\/ws$/, (ws) => {
    const server = ws.connectToServer();
    server.onMessage((message) => {
      if (
        !cut &&
        typeof message === 'string' &&
        message.includes('"type":"message"') &&
        message.includes('said twice') &&
        /"id":\d+/.test(message)
      ) {
        cut = true;
        void ws.close();
        return;
      }
      ws.send(message);
    });
  });
  await pairWith(page, iris);
  await send(page, 'said twice');
  const stored = () =>
    iris.server.gateway!.store.messages(LANE).filter((m) => m.role === 'user' && m.text === 'said twice').length;
  await expect.poll(stored, { timeout: 20_000 }).toBe(2);
  await expect(echoReply(page, 'said twice')).toHaveCount(2, { timeout: 20_000 });
  await expect(mine(page, 'said twice')).toHaveCount(2);
  await expect(mine(page, 'said twice').locator('[data-delivery="pending"]')).toHaveCount(0);
  // A reload shows the same: what the gateway stored, once each.
  await page.reload();
  await expect(mine(page, 'said twice')).toHaveCount(2);
  await expect(mine(page, 'said twice').locator('[data-delivery="pending"]')).toHaveCount(0);

  // An ordinary send against this gateway: one bubble, settled.
  await send(page, 'said once');
  await expect(echoReply(page, 'said once')).toBeVisible({ timeout: 15_000 });
  await expect(mine(page, 'said once')).toHaveCount(1);
  await expect(mine(page, 'said once').locator('[data-delivery]')).toHaveAttribute('data-delivery', /sent|read/);
});

test('no read.receipt at all: the bubble settles at "sent", no spinner', async ({ page }) => {
  const iris = await quirkyGateway({ noReadReceipts: true });
  await pairWith(page, iris);
  await send(page, 'is anyone reading');
  await expect(echoReply(page, 'is anyone reading')).toBeVisible({ timeout: 15_000 });
  const bubble = mine(page, 'is anyone reading');
  await expect(bubble.locator('[data-delivery]')).toHaveAttribute('data-delivery', 'sent');
  await expect(bubble.locator('[data-delivery="pending"]')).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: /Iris demo agent is/ })).toHaveCount(0);
});

test('channel.renamed with only {chat_id, name}: renames show; a favorite set here sticks', async ({
  page,
  browser,
}) => {
  const iris = await quirkyGateway({ renamedNameOnly: true });
  await pairWith(page, iris);
  const other = await secondDevice(browser, iris);
  await channelAction(page, 'Demo', 'Rename');
  const dialog = page.getByRole('dialog', { name: /Rename/ });
  await dialog.getByLabel('Name').fill('Playground');
  await dialog.getByRole('button', { name: /Rename|Save/ }).click();
  await expect(channelsNav(page).getByRole('link', { name: /^Playground(,|$)/ })).toBeVisible();
  await expect(channelsNav(other).getByRole('link', { name: /^Playground(,|$)/ })).toBeVisible();
  // The answer says nothing about favorites: the app keeps what the gateway acknowledged.
  await channelAction(page, 'Playground', 'Add to favorites');
  await expect(channelsNav(page).getByRole('link', { name: /^Playground(,|$)/ })).toHaveAccessibleName(/favorite/);
  await page.reload();
  await expect(channelsNav(page).getByRole('link', { name: /^Playground(,|$)/ })).toHaveAccessibleName(/favorite/);
  await other.context().close();
});

test('hello.ack without channels: the app asks channel.list and lands in the default channel', async ({ page }) => {
  const iris = await quirkyGateway({ helloAckWithoutChannels: true });
  await pairWith(page, iris);
  await expect(pageTitle(page)).toHaveText('General');
  await expect(channelsNav(page).getByRole('link', { name: /^Demo(,|$)/ })).toBeVisible();
});

test('hello.ack with an empty channel list (protocol.py when not given them): the app asks channel.list and keeps it after a reload', async ({
  page,
}) => {
  const iris = await quirkyGateway({ helloAckEmptyChannels: true });
  await pairWith(page, iris);
  await expect(pageTitle(page)).toHaveText('General');
  await expect(channelsNav(page).getByRole('link', { name: /^Demo(,|$)/ })).toBeVisible();
  // The next hello.ack says [] again: the directory the gateway listed stays.
  await page.reload();
  await expect(messageBox(page)).toBeVisible();
  await expect(channelsNav(page).getByRole('link', { name: /^Demo(,|$)/ })).toBeVisible();
  await expect(channelsNav(page).getByRole('link', { name: /^General(,|$)/ })).toBeVisible();
});

test('history without oldest_message_id: scrolling up pages by the oldest stored message, to the very first', async ({
  page,
}) => {
  const iris = await quirkyGateway({ historyWithoutOldest: true });
  seedHistory(iris, 'web:demo', 130, (i) => `old line ${i}`);
  await pairWith(page, iris);
  await page.goto(`${iris.baseURL}/#/c/${encodeURIComponent('web:demo')}`);
  await expect(messages(page).getByText('old line 130', { exact: true })).toBeVisible();
  await scrollUpTo(page, 'old line 1', 30_000);
  // Every message once: no page was skipped or fetched twice into duplicates.
  const count = await page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('iris');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const req = open.result.transaction('messages').objectStore('messages').getAll();
          req.onsuccess = () => resolve((req.result as { lane: string }[]).filter((m) => m.lane === 'web:demo').length);
          req.onerror = () => reject(req.error);
        };
      }),
  );
  expect(count).toBe(130);
});

test('times in seconds (int(time.time()) in Python): messages, history and search results keep their day and order', async ({
  page,
}) => {
  const iris = await quirkyGateway({ tsInSeconds: true });
  const store = iris.server.gateway!.store;
  const yesterday = Date.now() - 24 * 3_600_000;
  store.conversations.append({ lane: LANE, role: 'assistant', text: 'Pelicans, noted yesterday', ts: yesterday });
  store.flush();
  await pairWith(page, iris);
  await expect(messages(page).getByText('Pelicans, noted yesterday')).toBeVisible();
  await send(page, 'hello in seconds');
  await expect(echoReply(page, 'hello in seconds')).toBeVisible();
  // Each message's time is its own day (1970 when seconds are read as milliseconds), oldest first.
  const shown = async (scope: ReturnType<typeof messages>) =>
    (await scope.locator('time').evaluateAll((els) => els.map((e) => e.getAttribute('datetime') ?? ''))).map((t) =>
      Date.parse(t),
    );
  const times = await shown(messages(page));
  expect(times.length).toBeGreaterThanOrEqual(3);
  expect(Math.abs(times[0]! - yesterday)).toBeLessThan(2_000);
  for (const t of times.slice(1)) expect(Math.abs(t - Date.now())).toBeLessThan(120_000);
  // (A second's precision: a reply may carry the same second as the message before it.)
  times.slice(1).forEach((t, i) => expect(t).toBeGreaterThan(times[i]! - 1_000));
  // The gateway's search hit says when too.
  await page.getByRole('banner').getByRole('button', { name: 'Search' }).click();
  await page.getByRole('searchbox', { name: 'Search messages' }).fill('pelicans');
  const hit = page.getByRole('list', { name: 'Results' }).getByRole('link').filter({ hasText: 'noted yesterday' });
  await expect(hit).toHaveCount(1);
  const [hitTime] = await shown(hit);
  expect(Math.abs(hitTime! - yesterday)).toBeLessThan(2_000);
});

/** Each `note N` the person sent, with the article right after it: the agent's echo of it, not another message. */
async function expectRepliesFollow(page: Page, notes: string[]): Promise<void> {
  await expect(echoReply(page, notes.at(-1)!)).toBeVisible();
  await expect(async () => {
    const shown = await messages(page).locator('article').allInnerTexts();
    const asked = notes.filter((note) => shown.some((text) => text.startsWith(`${note}\n`)));
    expect(asked.length, 'questions on screen').toBeGreaterThanOrEqual(2);
    for (const note of asked) {
      const at = shown.findIndex((text) => text.startsWith(`${note}\n`));
      expect(shown[at + 1], `the message after "${note}"`).toContain(`Echo: ${note}`);
    }
  }).toPass({ timeout: 10_000 });
}

/** Sends each note as soon as the reply to the one before has come; each reply follows its note, also after a reload. */
async function quickExchange(page: Page, notes: string[]): Promise<void> {
  for (const note of notes) {
    await send(page, note);
    await expect(echoReply(page, note)).toBeVisible();
  }
  await expectRepliesFollow(page, notes);
  await page.reload();
  await expectRepliesFollow(page, notes);
}

test('times in seconds: a quick exchange keeps its order (a reply and the next question in the same second), live, after a reload, on another device and after a catch-up', async ({
  page,
  browser,
}) => {
  const iris = await quirkyGateway({ tsInSeconds: true });
  await pairWith(page, iris);
  const notes = ['note 1', 'note 2', 'note 3', 'note 4'];
  await quickExchange(page, notes);
  const other = await secondDevice(browser, iris);
  await expectRepliesFollow(other, notes);
  // The first device closed while the other talks on: the sync's replay keeps the order too.
  const url = page.url();
  await page.goto('about:blank');
  const more = ['note 5', 'note 6', 'note 7'];
  for (const note of more) {
    await send(other, note);
    await expect(echoReply(other, note)).toBeVisible();
  }
  await page.goto(url);
  await expectRepliesFollow(page, [...notes, ...more]);
});

test('a gateway clock 10 s ahead: a streamed reply stays under its question while it streams, and a message sent offline under that reply', async ({
  page,
}) => {
  const iris = await quirkyGateway({ clockAheadMs: 10_000 }, 150);
  await pairWith(page, iris);
  await send(page, 'first question');
  await expect(echoReply(page, 'first question')).toBeVisible();
  await send(page, '/long');
  const streaming = messages(page).locator('article[aria-busy="true"]');
  await expect(streaming.getByText('Line 3 of a long answer')).toBeVisible();
  const order = () =>
    messages(page)
      .locator('article')
      .evaluateAll((els) => els.map((e) => (e.getAttribute('aria-busy') === 'true' ? 'streaming' : e.textContent!)));
  const whileStreaming = await order();
  expect(whileStreaming.at(-1), 'the last message while the reply streams').toBe('streaming');
  expect(whileStreaming.at(-2)).toContain('/long');
  await expect(streaming).toHaveCount(0, { timeout: 20_000 });
  const after = await order();
  expect(after.at(-2)).toContain('/long');
  expect(after.at(-1)).toContain('Line 40 of a long answer');
  // Sent offline, a few seconds after that reply (which the gateway stamped 10 s ahead): under it.
  await page.context().setOffline(true);
  await send(page, 'sent offline');
  await expect(mine(page, 'sent offline')).toBeVisible();
  expect((await order()).at(-1)).toContain('sent offline');
  await page.context().setOffline(false);
  await expect(echoReply(page, 'sent offline')).toBeVisible({ timeout: 30_000 });
  const last = await order();
  expect(last.at(-2)).toContain('sent offline');
  expect(last.at(-3)).toContain('Line 40 of a long answer');
});

test('no ts at all (protocol.py’s message() not given one): history pages stack above in order, and a quick exchange keeps its order', async ({
  page,
}) => {
  const iris = await quirkyGateway({ noTs: true });
  seedHistory(iris, LANE, 120, (i) => `line ${i} of the past`);
  await pairWith(page, iris);
  const lines = async () =>
    (await messages(page).locator('article').allInnerTexts()).flatMap((text) => {
      const n = /line (\d+) of the past/.exec(text)?.[1];
      return n ? [Number(n)] : [];
    });
  const expectAscending = async () => {
    const shown = await lines();
    expect(shown.length, 'history on screen').toBeGreaterThan(2);
    expect(shown).toEqual([...shown].sort((a, b) => a - b));
  };
  await expect(messages(page).getByText('line 120 of the past', { exact: true })).toBeVisible();
  await expectAscending();
  // Older pages, asked for on the way up, go above what is there (not below the newest).
  await scrollUpTo(page, 'line 1 of the past', 20_000);
  await expectAscending();
  await messages(page).evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await quickExchange(page, ['note 1', 'note 2', 'note 3']);
});

test('answers without the request id (protocol.py helpers not given one): history, search, an upload and a download come at once', async ({
  page,
}) => {
  const iris = await quirkyGateway({ answersWithoutIds: true });
  seedHistory(iris, LANE, 80, (i) => `line ${i} of the past`);
  // Each answer within 5 s: a request left waiting for its id would fail after 15 s.
  const soon = { timeout: 5_000 };
  await pairWith(page, iris, { worker: true });
  await expect(messages(page).getByText('line 80 of the past', { exact: true })).toBeVisible(soon);
  await scrollUpTo(page, 'line 1 of the past', soon.timeout);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Attach' }).click();
  await (await chooser).setFiles([{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('my notes') }]);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(messages(page).getByText('Received: notes.txt')).toBeVisible(soon);
  await send(page, '/image');
  const img = messages(page).locator('article.msg-assistant').filter({ hasText: 'Here is an image' }).locator('img');
  await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth), soon).toBe(64);
  await page.getByRole('banner').getByRole('button', { name: 'Search' }).click();
  await page.getByRole('searchbox', { name: 'Search messages' }).fill('line 17');
  const results = page.getByRole('list', { name: 'Results' });
  await expect(results.getByRole('link').filter({ hasText: 'line 17 of' })).toHaveCount(1, soon);
});

test('channel answers without the request id (protocol.py’s channel helpers are broadcasts): create, rename, favorite, icon and archive finish at once, and Create makes one channel', async ({
  page,
}) => {
  const iris = await quirkyGateway({ answersWithoutIds: true });
  await page.setViewportSize(DESKTOP);
  await pairWith(page, iris);
  // Each within 5 s: a request left waiting for its id would say the gateway did not answer after 15 s.
  const soon = { timeout: 5_000 };
  await channelsNav(page).getByRole('button', { name: 'New channel' }).click();
  const create = page.getByRole('dialog', { name: 'New channel' });
  await create.getByLabel('Name').fill('Trips');
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(create).toBeHidden(soon);
  await expect(pageTitle(page)).toHaveText('Trips');
  await expect(channelsNav(page).getByRole('link', { name: /^Trips/ })).toHaveCount(1);

  await channelAction(page, 'Trips', 'Rename');
  const rename = page.getByRole('dialog', { name: 'Rename Trips' });
  await rename.getByLabel('Name').fill('Holidays');
  await rename.getByRole('button', { name: 'Rename' }).click();
  await expect(rename).toBeHidden(soon);
  await expect(pageTitle(page)).toHaveText('Holidays');

  await channelAction(page, 'Holidays', 'Add to favorites');
  await expect(channelsNav(page).getByRole('link', { name: /^Holidays/ })).toHaveAccessibleName(/favorite/, soon);

  await channelAction(page, 'Holidays', 'Icon and colour');
  const look = page.getByRole('dialog', { name: 'Icon and colour of Holidays' });
  await look.getByRole('button', { name: 'Use ✈️' }).click();
  await look.getByRole('button', { name: 'Save' }).click();
  await expect(look).toBeHidden(soon);

  await channelAction(page, 'Holidays', 'Archive');
  const archive = page.getByRole('dialog', { name: 'Archive Holidays?' });
  await archive.getByRole('button', { name: 'Archive' }).click();
  await expect(archive).toBeHidden(soon);
  await expect(channelsNav(page).getByRole('link', { name: /^Holidays/ })).toHaveCount(0);
  // Nothing failed on the way (no toast, no error left in a dialog).
  await page.waitForTimeout(500);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByText(/did not answer/)).toHaveCount(0);
});

test('no live cursor (this project’s extension): a reload replays whole turns the app has, and no empty “working” reply is left behind', async ({
  page,
}) => {
  const iris = await quirkyGateway({ noLiveCursor: true, noAgentFrames: true });
  await pairWith(page, iris);
  await send(page, 'first words');
  const first = echoReply(page, 'first words');
  await expect(first.getByText('Used 2 tools')).toBeVisible();
  await expect(first).toHaveAttribute('aria-busy', 'false');
  const replies = messages(page).locator('article.msg-assistant');
  await expect(replies).toHaveCount(1);
  // The stored cursor is still the last sync.done's: the reload's sync replays the whole turn above.
  await page.reload();
  await expect(first.getByText('Used 2 tools')).toBeVisible();
  await expect(messages(page).getByRole('article', { name: /working/ })).toHaveCount(0);
  await page.waitForTimeout(1_000); // the replay applied (a phantom reply came within it)
  await expect(messages(page).getByRole('article', { name: /working/ })).toHaveCount(0);
  await expect(replies).toHaveCount(1);
  // The next reply shows its own two tools, not the replayed turn's on top.
  await send(page, 'second words');
  const second = echoReply(page, 'second words');
  await expect(second.getByText('Used 2 tools')).toBeVisible();
  await expect(second).toHaveAttribute('aria-busy', 'false');
  await expect(replies).toHaveCount(2);
  await expect(first.getByText('Used 2 tools')).toBeVisible();
});

test('a reply the gateway lost (a restart dropped its turn) is not left “Writing…” for good: Stop, answered not_found, ends it with what it has, and Send is back', async ({
  page,
}) => {
  const iris = await quirkyGateway({ noAgentFrames: true });
  // The gateway as one that lost the turn: nothing runs there, and a stop is refused as not_found.
  let socket: WebSocketRoute | undefined;
  await page.routeWebSocket(/\/ws$/, (ws) => {
    const server = ws.connectToServer();
    socket = ws;
    ws.onMessage((message) => {
      const frame = typeof message === 'string' ? (JSON.parse(message) as { type?: string; id?: number }) : {};
      if (frame.type !== 'agent.stop') return server.send(message);
      const refusal = { code: 'not_found', message: 'no turn in progress in this chat' };
      ws.send(JSON.stringify({ v: 1, type: 'error', id: frame.id, payload: refusal }));
    });
  });
  await pairWith(page, iris);
  // What reached the app before the restart: a start and some text, never a stop.
  const lost = (type: string, payload: object) =>
    socket!.send(JSON.stringify({ v: 1, type, chat_id: LANE, payload: { message_id: 'lost-1', ...payload } }));
  lost('message.start', { role: 'assistant' });
  lost('message.update', { text: 'Half of an answer' });
  const reply = hermes(page, 'Half of an answer');
  await expect(reply).toHaveAttribute('aria-busy', 'true');
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(reply).toHaveAttribute('aria-busy', 'false');
  await expect(reply.getByText('Stopped', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Stop' })).toHaveCount(0);
  await expectNoNotice(page);
  // The lane works again: a message goes, and its reply comes.
  await send(page, 'are you there?');
  await expect(echoReply(page, 'are you there?')).toBeVisible();
});

test('no agent.busy or agent.idle (protocol.py has neither): Stop shows while a reply streams and stops it; the next message goes at once; each reply shows only its own tools', async ({
  page,
}) => {
  const iris = await quirkyGateway({ noAgentFrames: true }, 150);
  await pairWith(page, iris);
  await send(page, 'first words');
  await expect(echoReply(page, 'first words').getByText('Used 2 tools')).toBeVisible();
  await send(page, '/long');
  await expect(messages(page).getByText('Line 2 of a long answer')).toBeVisible();
  const reply = messages(page).getByRole('article').filter({ hasText: 'Line 2 of a long answer' }).last();
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(reply.getByText('Stopped', { exact: true })).toBeVisible();
  // Stopped before its one tool (after line 10): the tools of the reply before are not shown as its own.
  await expect(reply.getByText(/Used \d+ tools?/)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
  await expect(messages(page).getByText('Line 40 of a long answer')).toHaveCount(0);
  // A reply that ends by itself gives the button back to Send.
  await send(page, 'and now?');
  // At once: it does not wait for an answer to the stop, which this gateway never gives.
  await expect(mine(page, 'and now?')).toBeVisible({ timeout: 3_000 });
  await expect(echoReply(page, 'and now?')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Stop' })).toHaveCount(0);
});

test('media.offer without message_id: the image joins the lane’s last assistant message', async ({ page }) => {
  const iris = await quirkyGateway({ mediaOfferWithoutMessageId: true });
  await pairWith(page, iris, { worker: true });
  await send(page, '/image');
  const reply = messages(page).locator('article.msg-assistant').filter({ hasText: 'Here is an image' });
  const img = reply.locator('.media[data-kind="image"] img');
  await expect
    .poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth), { timeout: 15_000 })
    .toBe(64);
  await expect(messages(page).locator('.media[data-kind="image"]')).toHaveCount(1);
});

for (const push of ['fcm', 'none'] as const) {
  test(`server_caps.push ${push}: the settings say the gateway cannot wake the app, and why`, async ({ page }) => {
    const iris = await quirkyGateway({ push });
    await pairWith(page, iris);
    await page.goto(`${iris.baseURL}/#/settings`);
    const why = page.getByTestId('push-cannot-wake');
    await expect(why).toContainText('This gateway cannot wake Iris');
    await expect(why).toContainText(
      push === 'fcm' ? 'Firebase Cloud Messaging (FCM)' : 'sends no push notifications at all',
    );
    await expect(page.getByRole('switch', { name: 'Notifications' })).toBeDisabled();
  });
}

test('unknown frame types, notification kinds and agent.busy reasons: ignored or shown generically, never an error', async ({
  page,
}) => {
  const iris = await quirkyGateway({ unknownFrames: true });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await pairWith(page, iris);
  await send(page, 'hello from the future');
  await expect(echoReply(page, 'hello from the future')).toBeVisible({ timeout: 15_000 });
  // The unknown kind of notification (sent after the turn) is shown as a plain one, with its own words.
  await expect(toasts(page).getByRole('listitem').filter({ hasText: 'Sunny on the server' })).toBeVisible();
  await expect(mine(page, 'hello from the future').locator('[data-delivery]')).toHaveAttribute(
    'data-delivery',
    /sent|read/,
  );
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(
    toasts(page)
      .getByRole('listitem')
      .filter({ hasText: /error|unknown|not understood/i }),
  ).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('a stale picker answered twice: the second answer gets an error, shown once, and nothing else breaks', async ({
  page,
  browser,
}) => {
  const iris = await quirkyGateway({ stalePickers: true });
  await pairWith(page, iris);
  const other = await secondDevice(browser, iris);
  await send(page, '/confirm');
  const here = page.getByRole('dialog', { name: 'Archive old messages?' });
  const there = other.getByRole('dialog', { name: 'Archive old messages?' });
  await expect(here).toBeVisible();
  await expect(there).toBeVisible();
  await here.getByRole('button', { name: 'Yes' }).click();
  await expect(hermes(page, 'Confirmed')).toBeVisible();
  await expect(hermes(other, 'Confirmed')).toBeVisible();
  // This gateway never told the other device: its dialog is still up, and it answers too.
  await expect(there).toBeVisible();
  await there.getByRole('button', { name: 'Yes' }).click();
  const said = other.getByText('That question was already answered or no longer exists.');
  await expect(said).toHaveCount(1);
  await expect(there).toBeHidden();
  await expect(hermes(other, 'Confirmed')).toHaveCount(1);
  // The lane still works on both devices.
  await send(other, 'still fine');
  await expect(echoReply(other, 'still fine')).toBeVisible({ timeout: 15_000 });
  await expect(echoReply(page, 'still fine')).toBeVisible({ timeout: 15_000 });
  await other.context().close();
});

test('errors without the request id (protocol.py’s error() not given one): a refused send says why at once and Retry sends it; a stale answer is refused once', async ({
  page,
  browser,
}) => {
  const iris = await quirkyGateway({ errorsWithoutIds: true, stalePickers: true });
  // The relay refuses the first send, as this gateway would: an error with no id.
  await routeGateway(page, { failMarker: 'refused once', refusal: 'The disk is full.', refusalWithoutId: true });
  await pairWith(page, iris);
  await send(page, 'refused once');
  const refused = mine(page, 'refused once');
  // Not after the request's 15 s wait, nor sent again behind the person's back.
  await expect(refused).toContainText('Not sent: The disk is full.', { timeout: 5_000 });
  await expect(toasts(page).getByText('The disk is full.')).toHaveCount(0);
  await refused.getByRole('button', { name: 'Retry' }).click();
  await expect(refused.locator('[data-delivery="sent"], [data-delivery="read"]')).toBeVisible();
  await expect(echoReply(page, 'refused once')).toBeVisible({ timeout: 15_000 });

  // The gateway's own errors: a question answered on the other device first.
  const other = await secondDevice(browser, iris);
  await send(page, '/confirm');
  const here = page.getByRole('dialog', { name: 'Archive old messages?' });
  const there = other.getByRole('dialog', { name: 'Archive old messages?' });
  await expect(there).toBeVisible();
  await here.getByRole('button', { name: 'Yes' }).click();
  await expect(hermes(other, 'Confirmed')).toBeVisible();
  await there.getByRole('button', { name: 'Yes' }).click();
  await expect(there).toBeHidden({ timeout: 5_000 });
  const said = other.getByText('That question was already answered or no longer exists.');
  await expect(said).toHaveCount(1);
  await other.waitForTimeout(1_000);
  await expect(said).toHaveCount(1);
  await other.context().close();
});

test('no slash-command catalog (protocol.py has none): refused without the request id, and nothing is shown for it', async ({
  page,
}) => {
  const iris = await quirkyGateway({ noCatalog: true });
  await pairWith(page, iris);
  // The catalog is asked for as the app goes live, before a reply can come.
  await send(page, 'no catalog here');
  await expect(echoReply(page, 'no catalog here')).toBeVisible({ timeout: 5_000 });
  await expectNoNotice(page);
  await page.reload();
  await send(page, 'after a reload');
  await expect(echoReply(page, 'after a reload')).toBeVisible({ timeout: 5_000 });
  await expectNoNotice(page);
});

test('a gateway built on protocol.py as it is (no sync, catalog or agent frames; no ids, client_id or ts): a conversation with a stopped reply, live and after a reload, without a notice', async ({
  page,
}) => {
  const iris = await quirkyGateway(
    {
      noSync: true,
      noCatalog: true,
      noAgentFrames: true,
      errorsWithoutIds: true,
      answersWithoutIds: true,
      helloAckEmptyChannels: true,
      historyWithoutOldest: true,
      noClientId: true,
      noTs: true,
    },
    100,
  );
  await pairWith(page, iris);
  await send(page, 'first words');
  await expect(echoReply(page, 'first words').getByText('Used 2 tools')).toBeVisible();
  await send(page, '/long');
  const reply = messages(page).getByRole('article').filter({ hasText: 'Line 2 of a long answer' }).last();
  await expect(reply).toBeVisible();
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(reply.getByText('Stopped', { exact: true })).toBeVisible();
  // None of the first reply's tools: at most its own `think` (after line 10, if the stop came later), failed by it.
  await expect(reply.getByText(/Used (?!1 tool · 1 failed$)/)).toHaveCount(0);
  // The stop is never answered (it waits out its 15 s): meanwhile the next exchange comes at once.
  await send(page, 'after the stop');
  await expect(echoReply(page, 'after the stop')).toBeVisible({ timeout: 5_000 });
  await expectNoNotice(page);
  await page.reload();
  await expect(echoReply(page, 'after the stop')).toBeVisible();
  await expect(echoReply(page, 'first words')).toBeVisible();
  await send(page, 'after a reload');
  await expect(echoReply(page, 'after a reload')).toBeVisible({ timeout: 5_000 });
  await expectNoNotice(page);
});

test('no sync (protocol.py before its outbox): refused without the request id, the app goes live at once, also after a reload', async ({
  page,
}) => {
  const iris = await quirkyGateway({ noSync: true });
  await pairWith(page, iris);
  // Within a few seconds: the sync's 60 s wait, then a reconnect, is what it was before.
  await send(page, 'no replay here');
  await expect(echoReply(page, 'no replay here')).toBeVisible({ timeout: 5_000 });
  await expectNoNotice(page);
  await page.reload();
  await expect(echoReply(page, 'no replay here')).toBeVisible();
  await send(page, 'after a reload');
  await expect(echoReply(page, 'after a reload')).toBeVisible({ timeout: 5_000 });
});
