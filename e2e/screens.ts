// The app's main screens, each as "how a person gets there", shared by the layout audit
// (e2e/layout-audit.spec.ts) and the screenshot command (scripts/make-screenshots.ts). To audit and
// photograph a new screen, add an entry here.
import type { Page, WebSocketRoute } from '@playwright/test';
import {
  expect,
  launchServer,
  pair,
  type IrisServer,
  anotherDeviceSays,
  routeGateway,
  shareFromAnotherApp,
} from './support';

export type Device = 'phone' | 'desktop';

export interface Screen {
  /** A file-name-safe name: "lane", "viewer"… */
  name: string;
  /** Only on this kind of screen (the channel drawer exists only on phones). */
  only?: Device;
  /** How its serving process starts (a slow stream, to catch the agent at work). */
  server?: Parameters<typeof launchServer>[0];
  /** Puts a freshly started page on this screen, with the content it needs, and waits until it shows. */
  open(page: Page, iris: IrisServer, device: Device): Promise<void>;
}

const LANE = 'web:default';
const laneUrl = (iris: IrisServer, lane = LANE) => `${iris.baseURL}/#/c/${encodeURIComponent(lane)}`;
const log = (page: Page) => page.getByRole('log', { name: 'Messages' });
const messageBox = (page: Page) => page.getByRole('textbox', { name: 'Message' });

/** What a person typically asks first; the demo answers with bold text, two tools and a code block. */
const FIRST_QUESTION = 'Plan my week: gym twice, finish the report';

/** An answer that exercises the Markdown a phone finds hard: a wide table, a list past 9, long code. */
export const RICH_ANSWER = [
  'Here is the week, **day by day**:',
  '',
  '| Day | Morning | Afternoon | Evening |',
  '| --- | --- | --- | --- |',
  '| Monday | Gym (legs and core) | Report: outline and sources | Read chapter three |',
  '| Wednesday | Report: first full draft | Team meeting about the quarterly numbers | Gym (upper body) |',
  '| Friday | Report: final edits | Send the report to Alice | Free |',
  '',
  ...Array.from({ length: 12 }, (_, i) => `${i + 1}. Step ${i + 1} of the plan`),
  '',
  '```sh',
  'rsync -avz --delete --exclude node_modules ./report/ backup.example.net:/srv/backups/reports/2026-week-49/',
  '```',
].join('\n');

/** A user's own message with a table (its header must stay readable inside the accent bubble). */
export const USER_TABLE = [
  'Compare these:',
  '',
  '| Plan | Price |',
  '| --- | --- |',
  '| Basic | 5 € |',
  '| Pro | 12 € |',
].join('\n');

async function openLane(page: Page, iris: IrisServer, lane = LANE): Promise<void> {
  await pair(page, iris);
  await page.goto(laneUrl(iris, lane));
  await expect(messageBox(page)).toBeVisible();
}

/** A real turn of the demo agent (tools, reasoning, a code block), asked from another device. */
async function withConversation(page: Page, iris: IrisServer): Promise<void> {
  await anotherDeviceSays(iris, LANE, FIRST_QUESTION);
  await openLane(page, iris);
  await expect(log(page).getByText('— Iris demo agent').last()).toBeVisible({ timeout: 30_000 });
}

/** The same turn asked here, so its live tool activity shows too. */
async function askedHere(page: Page, iris: IrisServer): Promise<void> {
  await openLane(page, iris);
  await messageBox(page).fill(FIRST_QUESTION);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(log(page).getByText('— Iris demo agent').last()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
}

async function picker(page: Page, iris: IrisServer, command: string, title: string): Promise<void> {
  await openLane(page, iris);
  await messageBox(page).fill(command);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('dialog', { name: title })).toBeVisible();
}

/** The channel list: beside the lane on a desktop, in the drawer on a phone. */
async function openChannels(page: Page, device: Device): Promise<void> {
  if (device === 'phone') await page.getByRole('button', { name: 'Channels' }).click();
  await expect(page.getByRole('navigation', { name: 'Channels' })).toBeVisible();
}

/**
 * The app's real socket, passed through, with a way to speak for the gateway on it and to cut it (every
 * later connection refused, as when the server is gone). Set up before the page pairs.
 */
async function routedSocket(page: Page): Promise<{ say(frame: object): void; cut(): Promise<void> }> {
  let socket: WebSocketRoute | undefined;
  let refuse = false;
  await page.routeWebSocket(/\/ws$/, (ws) => {
    if (refuse) return void ws.close();
    ws.connectToServer();
    socket = ws;
  });
  return {
    say: (frame) => socket!.send(JSON.stringify({ v: 1, ...frame })),
    async cut() {
      refuse = true;
      await socket!.close();
    },
  };
}

const banner = (page: Page) => page.locator('.connection-banner-slot');

export const SCREENS: Screen[] = [
  {
    name: 'pairing',
    async open(page, iris) {
      await page.goto(`${iris.baseURL}/#/pair`);
      await expect(page.getByLabel('Token')).toBeVisible();
    },
  },
  {
    name: 'lane',
    open: askedHere,
  },
  {
    name: 'markdown',
    async open(page, iris) {
      const store = iris.server.gateway!.store.conversations;
      const ts = Date.now() - 60_000;
      store.append({ lane: LANE, role: 'assistant', text: RICH_ANSWER, ts });
      store.append({ lane: LANE, role: 'user', text: USER_TABLE, ts: ts + 1000 });
      await openLane(page, iris);
      await expect(log(page).getByText('Step 12 of the plan')).toBeVisible();
    },
  },
  {
    name: 'empty',
    async open(page, iris) {
      await openLane(page, iris);
    },
  },
  {
    name: 'thread',
    async open(page, iris) {
      await anotherDeviceSays(iris, LANE, '/thread Plan the trip to Lisbon');
      const thread = iris.server.gateway!.store.channels.threadsOf(LANE)[0]!;
      await openLane(page, iris, thread.chat_id);
      await page.goto(`${iris.baseURL}/#/c/${encodeURIComponent(LANE)}/t/${encodeURIComponent(thread.chat_id)}`);
      await expect(log(page).getByText('— Iris demo agent').last()).toBeVisible({ timeout: 30_000 });
    },
  },
  {
    name: 'channel-threads',
    async open(page, iris, device) {
      // A channel with a conversation and a thread started from another device: the thread must be
      // findable from the channel itself (a phone's top bar), not only from the drawer.
      await anotherDeviceSays(iris, LANE, FIRST_QUESTION);
      await anotherDeviceSays(iris, LANE, '/thread Plan the trip to Lisbon');
      await anotherDeviceSays(iris, LANE, '/thread A very long question about the quarterly numbers and the report');
      await openLane(page, iris);
      await expect(log(page).getByText('— Iris demo agent').last()).toBeVisible({ timeout: 30_000 });
      if (device === 'phone') {
        await page.getByRole('button', { name: /^Threads in General/ }).click();
        await expect(page.getByRole('menu', { name: 'Threads in General' }).getByRole('menuitem')).toHaveCount(2);
      }
    },
  },
  {
    name: 'drawer',
    only: 'phone',
    async open(page, iris) {
      await withConversation(page, iris);
      await page.getByRole('button', { name: 'Channels' }).click();
      const drawer = page.getByRole('dialog', { name: 'Channels' });
      await expect(drawer).toBeVisible();
      // Measured where it comes to rest: while it slides in (160 ms) it is partly off the screen's left edge.
      await drawer.evaluate((el) => Promise.all(el.getAnimations().map((animation) => animation.finished)));
    },
  },
  {
    name: 'slash-menu',
    async open(page, iris) {
      await openLane(page, iris);
      await messageBox(page).click();
      await messageBox(page).press('/');
      await expect(page.getByRole('listbox', { name: 'Commands' })).toBeVisible();
    },
  },
  {
    name: 'working',
    server: { streamDelayMs: 400 },
    async open(page, iris) {
      await openLane(page, iris);
      await messageBox(page).fill('/long');
      await page.getByRole('button', { name: 'Send' }).click();
      await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
      await expect(log(page).getByText('Line 3 of a long answer')).toBeVisible();
    },
  },
  {
    name: 'search',
    async open(page, iris) {
      await withConversation(page, iris);
      await page.goto(`${iris.baseURL}/#/search?q=report`);
      await expect(page.getByRole('list', { name: 'Results' }).getByRole('link').first()).toBeVisible();
    },
  },
  {
    name: 'settings',
    async open(page, iris) {
      await pair(page, iris);
      await page.goto(`${iris.baseURL}/#/settings`);
      await expect(page.getByRole('button', { name: 'Show pairing QR code' })).toBeVisible();
    },
  },
  {
    name: 'viewer',
    async open(page, iris) {
      await anotherDeviceSays(iris, LANE, '/image');
      await openLane(page, iris);
      const open = log(page).getByRole('button', { name: /^Open picture/ });
      await open.click({ timeout: 30_000 });
      const viewer = page.getByRole('dialog', { name: /^Picture viewer/ });
      await expect(viewer.locator('img')).toBeVisible();
      await viewer.locator('img').evaluate((img: HTMLImageElement) => img.decode());
    },
  },
  {
    // A picture whose stored bytes are no picture, and one evicted from the cache: each says so in its
    // box, with a button (the demo's 64 px drawing has a box of only 128 px).
    name: 'picture-states',
    async open(page, iris) {
      await anotherDeviceSays(iris, LANE, '/image');
      await anotherDeviceSays(iris, LANE, '/image');
      await openLane(page, iris);
      const pictures = log(page).locator('.media[data-kind="image"]');
      await expect(pictures).toHaveCount(2, { timeout: 30_000 });
      await expect(pictures.locator('img')).toHaveCount(2, { timeout: 30_000 });
      const ids = await pictures.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.mediaId!));
      await page.evaluate(async ([broken, evicted]) => {
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const req = indexedDB.open('iris');
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(req.error);
        });
        const tx = db.transaction(['media', 'mediaBlobs'], 'readwrite');
        tx.objectStore('mediaBlobs').put({
          media_id: broken,
          blob: new Blob(['not a picture'], { type: 'image/png' }),
        });
        tx.objectStore('mediaBlobs').delete(evicted!);
        const media = tx.objectStore('media');
        const row = media.get(evicted!);
        row.onsuccess = () => media.put({ ...(row.result as object), state: 'evicted' });
        await new Promise((resolve, reject) => {
          tx.oncomplete = resolve;
          tx.onerror = () => reject(tx.error);
        });
        db.close();
      }, ids);
      await page.reload();
      await expect(log(page).getByText('This picture cannot be shown.')).toBeVisible({ timeout: 10_000 });
      await expect(log(page).getByRole('button', { name: /^Download again, / })).toBeVisible();
    },
  },
  {
    // Files the agent sent: a document waiting for a tap, and a voice message the gateway cannot send
    // (an id it does not know), so the player says so with Try again.
    name: 'files',
    async open(page, iris) {
      const socket = await routedSocket(page);
      await openLane(page, iris);
      socket.say({
        type: 'message',
        chat_id: LANE,
        payload: {
          message_id: 'files-1',
          role: 'assistant',
          text: 'Here is the report, and a voice note about it.',
          ts: Date.now(),
          media: [
            {
              media_id: 'med_report',
              kind: 'document',
              mime: 'application/pdf',
              filename: 'Quarterly report (final).pdf',
              size: 2_400_000,
            },
            { media_id: 'med_voice', kind: 'voice', mime: 'audio/ogg', filename: 'voice-note.ogg', size: 48_000 },
          ],
        },
      });
      await expect(log(page).getByRole('button', { name: /^Download, / })).toBeVisible({ timeout: 15_000 });
      await expect(log(page).getByRole('button', { name: /^Try again to download / })).toBeVisible({
        timeout: 15_000,
      });
    },
  },
  {
    // A message the gateway refused (its reason, Retry), and the composer replying to the agent with a
    // file attached.
    name: 'send-states',
    async open(page, iris) {
      await routeGateway(page, {
        failMarker: 'Refused:',
        refusal: 'Messages to this agent are paused by its owner.',
      });
      await openLane(page, iris);
      await messageBox(page).fill(FIRST_QUESTION);
      await page.getByRole('button', { name: 'Send' }).click();
      await expect(log(page).getByText('— Iris demo agent').last()).toBeVisible({ timeout: 30_000 });
      await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
      await messageBox(page).fill('Refused: book the gym for Monday at 7');
      await page.getByRole('button', { name: 'Send' }).click();
      await expect(log(page).getByRole('button', { name: 'Retry' })).toBeVisible();
      const answer = log(page)
        .getByRole('article', { name: /^Iris demo agent/ })
        .last();
      await answer.locator('.md p').first().click();
      await answer.getByRole('button', { name: 'Reply' }).click();
      await expect(page.getByText('Replying to Iris demo agent')).toBeVisible();
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: 'Attach' }).click();
      const menu = page.getByRole('menu');
      if (await menu.isVisible()) await menu.getByRole('menuitem').last().click();
      await (
        await chooser
      ).setFiles([{ name: 'Gym schedule (winter).pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(48_000, 1) }]);
      await expect(page.getByRole('list', { name: 'Attachments' }).getByRole('listitem')).toHaveCount(1);
    },
  },
  {
    name: 'delete-confirm',
    async open(page, iris) {
      await askedHere(page, iris);
      const mine = log(page)
        .getByRole('article', { name: /^You, / })
        .last();
      await mine.locator('.bubble').click();
      await mine.getByRole('button', { name: 'Delete' }).click();
      await expect(page.getByRole('dialog', { name: 'Delete this message?' })).toBeVisible();
    },
  },
  {
    // The agent's reasoning opened under its reply.
    name: 'reasoning',
    async open(page, iris) {
      await openLane(page, iris);
      await messageBox(page).fill('/think Should I take the train or fly to Lisbon?');
      await page.getByRole('button', { name: 'Send' }).click();
      await expect(page.getByRole('button', { name: 'Send' })).toBeVisible({ timeout: 30_000 });
      await log(page)
        .getByRole('button', { name: /^Thought/ })
        .last()
        .click();
      await expect(log(page).locator('.reasoning').last()).toBeVisible();
    },
  },
  {
    // Questions closed unanswered, waiting behind one chip.
    name: 'questions-chip',
    async open(page, iris) {
      const socket = await routedSocket(page);
      await withConversation(page, iris);
      const ask = (type: string, payload: object) => socket.say({ type, chat_id: LANE, payload });
      ask('picker.confirm', { picker_id: 'q1', title: 'Archive old messages?' });
      ask('picker.clarify', { picker_id: 'q2', question: 'Which format should the summary use?' });
      for (const title of ['Archive old messages?', 'Which format should the summary use?']) {
        await expect(page.getByRole('dialog', { name: title })).toBeVisible();
        await page.keyboard.press('Escape');
      }
      await expect(page.getByRole('button', { name: '2 pending questions' })).toBeVisible();
    },
  },
  {
    name: 'search-empty',
    async open(page, iris) {
      await withConversation(page, iris);
      await page.goto(`${iris.baseURL}/#/search?q=xylophone`);
      await expect(page.getByText(/No (messages|results)/)).toBeVisible({ timeout: 15_000 });
    },
  },
  {
    // A long file in an answer: cut short, with a way to see it all.
    name: 'long-file',
    async open(page, iris) {
      await openLane(page, iris);
      await messageBox(page).fill('/file 400');
      await page.getByRole('button', { name: 'Send' }).click();
      await expect(page.getByRole('button', { name: 'Send' })).toBeVisible({ timeout: 30_000 });
      await expect(
        log(page)
          .getByRole('button', { name: /^Show all/ })
          .last(),
      ).toBeVisible();
    },
  },
  {
    // Written offline: the message waits, saying so, under the offline banner.
    name: 'pending-offline',
    async open(page, iris) {
      const socket = await routedSocket(page);
      await withConversation(page, iris);
      await socket.cut();
      await expect(banner(page)).toHaveText(/Offline|Reconnecting/);
      await messageBox(page).fill('Move the gym to Thursday');
      await page.getByRole('button', { name: 'Send' }).click();
      await expect(
        log(page)
          .getByRole('article', { name: /^You, / })
          .last(),
      ).toContainText('Pending');
    },
  },
  {
    // A picture and a file on their way (the gateway's ack held back): progress and Cancel in the bubble.
    name: 'upload-progress',
    async open(page, iris) {
      await routeGateway(page, { holdUploadAcks: true });
      await openLane(page, iris);
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: 'Attach' }).click();
      const menu = page.getByRole('menu');
      if (await menu.isVisible()) await menu.getByRole('menuitem').last().click();
      await (
        await chooser
      ).setFiles([
        { name: 'Site survey, north wall.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(900_000, 7) },
      ]);
      await messageBox(page).fill('The survey, as promised');
      await page.getByRole('button', { name: 'Send' }).click();
      await expect(log(page).getByRole('button', { name: /^Cancel upload of / })).toBeVisible({ timeout: 15_000 });
    },
  },
  {
    name: 'picker-approval',
    open: (page, iris) => picker(page, iris, '/approve make deploy --prod', 'Approve this command?'),
  },
  { name: 'picker-model', open: (page, iris) => picker(page, iris, '/model', 'Choose a model') },
  { name: 'picker-choice', open: (page, iris) => picker(page, iris, '/choose', 'Reasoning effort') },
  {
    name: 'picker-clarify',
    open: (page, iris) => picker(page, iris, '/clarify', 'Which format should the summary use?'),
  },
  { name: 'picker-confirm', open: (page, iris) => picker(page, iris, '/confirm', 'Archive old messages?') },
  {
    name: 'pairing-error',
    async open(page, iris) {
      await page.goto(`${iris.baseURL}/#/pair?url=${encodeURIComponent(iris.gatewayUrl)}&token=not-the-token`);
      await expect(page.getByRole('status').filter({ hasText: 'did not accept this token' })).toBeVisible();
    },
  },
  {
    name: 'share',
    async open(page, iris) {
      await pair(page, iris);
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      await shareFromAnotherApp(page, 'https://example.org/a-rather-long-article-address-that-a-phone-must-wrap');
      await expect(page.getByRole('heading', { name: 'Share to Iris' })).toBeVisible();
      await expect(page.getByText('1 file: list.txt')).toBeVisible();
    },
  },
  {
    // Two questions waiting in another lane: toasts that stay until answered (news and errors fade).
    name: 'toasts',
    async open(page, iris) {
      const socket = await routedSocket(page);
      await withConversation(page, iris);
      socket.say({
        type: 'picker.approval',
        chat_id: 'web:demo',
        payload: { picker_id: 'p-deploy', command: 'make deploy --prod', description: 'Ship it.' },
      });
      socket.say({
        type: 'notification',
        chat_id: 'web:demo',
        payload: { kind: 'approval', title: 'Approval needed', body: 'Run make deploy --prod?', ts: Date.now() },
      });
      socket.say({
        type: 'notification',
        chat_id: 'web:demo',
        payload: { kind: 'clarify', title: 'Question', body: 'Which format should the summary use?', ts: Date.now() },
      });
      await expect(page.getByRole('list', { name: 'Notifications' }).getByRole('listitem')).toHaveCount(2);
    },
  },
  {
    name: 'banner-offline',
    async open(page, iris) {
      const socket = await routedSocket(page);
      await withConversation(page, iris);
      await socket.cut();
      await expect(banner(page)).toHaveText(/Offline|Reconnecting/);
    },
  },
  {
    name: 'banner-degraded',
    async open(page, iris) {
      const socket = await routedSocket(page);
      await withConversation(page, iris);
      socket.say({ type: 'status', payload: { state: 'degraded' } });
      await expect(banner(page)).toContainText('The gateway is having trouble.');
    },
  },
  {
    name: 'tools-expanded',
    async open(page, iris) {
      await askedHere(page, iris);
      await log(page)
        .getByRole('button', { name: /^Used 2 tools/ })
        .last()
        .click();
      await log(page).getByRole('button', { name: 'Show output' }).first().click();
      await expect(log(page).getByRole('button', { name: 'Hide output' }).first()).toBeVisible();
    },
  },
  {
    name: 'channel-menu',
    async open(page, iris, device) {
      await withConversation(page, iris);
      await openChannels(page, device);
      await page.getByRole('button', { name: 'Actions for General' }).click();
      await expect(page.getByRole('menuitem', { name: 'Rename' })).toBeVisible();
    },
  },
  {
    name: 'channel-rename',
    async open(page, iris, device) {
      await withConversation(page, iris);
      await openChannels(page, device);
      await page.getByRole('button', { name: 'Actions for General' }).click();
      await page.getByRole('menuitem', { name: 'Rename' }).click();
      await expect(page.getByRole('dialog', { name: 'Rename General' })).toBeVisible();
    },
  },
  {
    name: 'channel-new',
    async open(page, iris, device) {
      await withConversation(page, iris);
      await openChannels(page, device);
      await page.getByRole('navigation', { name: 'Channels' }).getByRole('button', { name: 'New channel' }).click();
      await expect(page.getByRole('dialog', { name: 'New channel' })).toBeVisible();
    },
  },
  {
    name: 'settings-qr',
    async open(page, iris) {
      await pair(page, iris);
      await page.goto(`${iris.baseURL}/#/settings`);
      await page.getByRole('button', { name: 'Show pairing QR code' }).click();
      await expect(page.getByRole('img', { name: 'QR code of the pairing link' })).toBeVisible();
    },
  },
  {
    name: 'forget-gateway',
    async open(page, iris) {
      await pair(page, iris);
      await page.goto(`${iris.baseURL}/#/settings`);
      await page.getByRole('button', { name: 'Forget this gateway' }).click();
      await expect(page.getByRole('dialog', { name: 'Forget this gateway?' })).toBeVisible();
    },
  },
];

export function screensFor(device: Device): Screen[] {
  return SCREENS.filter((s) => !s.only || s.only === device);
}
