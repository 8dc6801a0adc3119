// Issue 7 in Chromium: Settings → Notifications, the service worker's push handling, answers from a
// notification with and without a window, and the real gateway → Web Push path (a fake push service on
// 127.0.0.1 receives what the gateway encrypts for the subscription this test made, and decrypts it).
// No push service is reachable here, so the page's PushManager hands out the test's subscription.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { BrowserContext, Page, Worker } from '@playwright/test';
import { startGateway } from '../server/gateway/standalone';
import { TestClient } from '../server/gateway/testclient';
import { startServer } from '../server/http/server';
import { createTestSubscriber, decryptWebPush, type TestSubscriber } from '../server/push/testing/decrypt';
import { startFakePushService, type FakePushService } from '../server/push/testing/fake-push-service';
import {
  expect,
  type IrisServer,
  LANE,
  launchServer,
  openLane,
  pair,
  pairingLink,
  sendMessage,
  test as base,
} from './support';
import { clickNotification, fakePushManager, pushDeliverer, workerNotifications } from './support/push';
import { NOTIFICATIONS_LOCK } from '../src/push/notificationLock';

/** Push on, retries off, and the test's own fake push service (on 127.0.0.1) reachable. */
const pushOptions = (service: FakePushService) => ({ testPushOrigins: [service.origin], retries: 0 });

const test = base.extend<{ iris: IrisServer; pushService: FakePushService; subscriber: TestSubscriber }>({
  // The serving process with push on and the fake push service's http:// endpoints allowed.
  iris: async ({ pushService }, use) => {
    const iris = await launchServer({ push: pushOptions(pushService) });
    await use(iris);
    await iris.server.close();
    rmSync(iris.dataDir, { recursive: true, force: true });
  },
  pushService: async ({}, use) => {
    const service = await startFakePushService();
    await use(service);
    await service.close();
  },
  subscriber: async ({ pushService }, use) => {
    await use(createTestSubscriber(pushService.endpoint()));
  },
});

async function setUp(page: Page, iris: IrisServer, subscriber: TestSubscriber): Promise<void> {
  await page.context().grantPermissions(['notifications'], { origin: iris.baseURL });
  await fakePushManager(page.context(), subscriber);
  await pair(page, iris);
  // Production build: the app registers /sw.js; it takes control at once (clientsClaim).
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

const notificationSwitch = (page: Page) => page.getByRole('switch', { name: 'Notifications' });
const statusWords = (page: Page) => page.getByTestId('notification-status');

async function turnOn(page: Page, iris: IrisServer): Promise<void> {
  await page.goto(`${iris.baseURL}/#/settings`);
  await expect(statusWords(page)).toHaveText('Off');
  await notificationSwitch(page).click();
  await expect(statusWords(page)).toHaveText('On');
  await expect(notificationSwitch(page)).toBeChecked();
}

async function noSeriousA11yIssues(page: Page): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const results = await new AxeBuilder({ page }).include('.settings-page').analyze();
    const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(bad.map((v) => `${scheme} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: null });
}

async function deviceId(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      new Promise<string>((resolveId, reject) => {
        const open = indexedDB.open('iris');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const get = open.result.transaction('settings').objectStore('settings').get('deviceId');
          get.onsuccess = () => {
            open.result.close();
            resolveId((get.result as { value: string }).value);
          };
        };
      }),
  );
}

interface ShownNotification {
  title: string;
  body: string;
  tag: string;
  actions: { action: string; title: string }[];
  data: Record<string, unknown>;
}

/** `registration.getNotifications()`, evaluated in the page. */
function shown(page: Page, tag?: string): Promise<ShownNotification[]> {
  return page.evaluate(
    async ({ tag: t, lock }) => {
      const registration = await navigator.serviceWorker.ready;
      // Under the app's lock: a read while the worker shows one would lose it (src/push/notificationLock.ts).
      const list = await navigator.locks.request(lock, () => registration.getNotifications(t ? { tag: t } : undefined));
      return list.map((n) => ({
        title: n.title,
        body: n.body,
        tag: n.tag,
        actions: ((n as unknown as { actions?: { action: string; title: string }[] }).actions ?? []).map((a) => ({
          action: a.action,
          title: a.title,
        })),
        data: n.data as Record<string, unknown>,
      }));
    },
    { tag, lock: NOTIFICATIONS_LOCK },
  );
}

function serviceWorker(context: BrowserContext): Worker {
  const [worker] = context.serviceWorkers();
  if (!worker) throw new Error('no service worker');
  return worker;
}

function decrypted(body: Buffer, subscriber: TestSubscriber): Record<string, unknown> {
  return JSON.parse(decryptWebPush(body, subscriber).toString('utf8')) as Record<string, unknown>;
}

async function sendInLane(page: Page, iris: IrisServer, text: string): Promise<void> {
  await openLane(page, iris);
  await sendMessage(page, text);
}

/** Paired with its worker in control, notifications switched on; pushes to the worker as the push service would. */
async function notificationsOn(page: Page, iris: IrisServer, subscriber: TestSubscriber) {
  await setUp(page, iris, subscriber);
  await turnOn(page, iris);
  return pushDeliverer(page, iris.baseURL);
}

/** Asks for an approval in the lane; the real push it causes, decrypted, and the tag of its notification. */
async function approvalPushed(
  page: Page,
  iris: IrisServer,
  service: FakePushService,
  subscriber: TestSubscriber,
  command: string,
): Promise<{ approval: Record<string, unknown>; tag: string }> {
  await sendInLane(page, iris, command);
  const [push] = await service.waitForPushes(1, 10_000);
  const approval = decrypted(push!.body, subscriber);
  return { approval, tag: `picker:${String(approval.picker_id)}` };
}

test.describe.configure({ timeout: 90_000 });

test('the switch registers the subscription with the gateway; a reply to the closed app arrives encrypted for its lane; off and forget unsubscribe', async ({
  page,
  context,
  iris,
  pushService,
  subscriber,
}) => {
  await setUp(page, iris, subscriber);
  await page.goto(`${iris.baseURL}/#/settings`);
  await expect(notificationSwitch(page)).not.toBeChecked();
  await noSeriousA11yIssues(page);
  await turnOn(page, iris);
  await noSeriousA11yIssues(page);
  const id = await deviceId(page);
  const devices = iris.server.gateway!.store.devices;
  expect(devices.get(id)?.target).toMatchObject({ mode: 'webpush', webpush: subscriber.subscription });
  // Subscribed with the server's own VAPID key, visible-only.
  const options = JSON.parse(
    (await page.evaluate(() => localStorage.getItem('iris-test-push-subscribe-options')))!,
  ) as { userVisibleOnly: boolean; key: string };
  expect(options).toEqual({ userVisibleOnly: true, key: iris.server.push!.vapidPublicKey });
  await expect(page.getByText('The gateway, through the browser’s push service')).toBeVisible();

  // "Send test notification": shown through the service worker's registration.
  await page.getByRole('button', { name: 'Send test notification' }).click();
  await expect
    .poll(async () => (await shown(page, 'iris-test')).map((n) => n.title))
    .toEqual(['Iris test notification']);

  // The app closes; another device talks in the lane; the agent's reply is pushed to this device.
  await page.close();
  await expect.poll(() => iris.server.gateway!.connectionCount()).toBe(0);
  const other = await TestClient.paired(iris.gatewayUrl, { token: iris.token, device_id: 'other-device' });
  await other.chat('hello from the other device', { chat_id: LANE });
  await other.close();
  const [push] = await pushService.waitForPushes(1, 10_000);
  const message = decrypted(push!.body, subscriber);
  expect(message).toMatchObject({ kind: 'message', lane: LANE, chat_id: LANE, title: 'Iris demo agent' });
  expect(typeof message.message_id).toBe('string');
  expect(
    iris.server
      .gateway!.store.messages(LANE)
      .some((m) => m.message_id === message.message_id && m.role === 'assistant'),
  ).toBe(true);

  // Back in the app: off unsubscribes and tells the gateway push: none.
  const again = await context.newPage();
  await again.goto(`${iris.baseURL}/#/settings`);
  await expect(statusWords(again)).toHaveText('On');
  await notificationSwitch(again).click();
  await expect(statusWords(again)).toHaveText('Off');
  await expect.poll(() => devices.get(id)?.target.mode).toBe('none');
  expect(await again.evaluate(() => localStorage.getItem('iris-test-push-subscription'))).toBeNull();

  // On again, then forgetting the gateway unsubscribes too.
  await notificationSwitch(again).click();
  await expect(statusWords(again)).toHaveText('On');
  await expect.poll(() => devices.get(id)?.target.mode).toBe('webpush');
  await again.getByRole('button', { name: 'Forget this gateway' }).click();
  await again.getByRole('dialog', { name: 'Forget this gateway?' }).getByRole('button', { name: 'Forget' }).click();
  await expect(again).toHaveURL(/#\/pair/);
  await expect.poll(() => devices.get(id)?.target.mode).toBe('none');
  expect(await again.evaluate(() => localStorage.getItem('iris-test-push-subscription'))).toBeNull();
});

test('the worker shows a push and the app reads its notifications one at a time, under one lock (Chromium loses a notification read while it is shown)', async ({
  page,
  iris,
  subscriber,
}) => {
  const { deliver } = await notificationsOn(page, iris, subscriber);
  const waiting = () =>
    page.evaluate(
      async (lock) => (await navigator.locks.query()).pending?.filter((l) => l.name === lock).length ?? 0,
      NOTIFICATIONS_LOCK,
    );
  // The page holds the lock, as another window reading the list would.
  await page.evaluate((lock) => {
    void navigator.locks.request(
      lock,
      () => new Promise<void>((release) => ((window as unknown as { releaseLock: () => void }).releaseLock = release)),
    );
  }, NOTIFICATIONS_LOCK);
  await expect
    .poll(() => page.evaluate(() => typeof (window as unknown as { releaseLock?: unknown }).releaseLock))
    .toBe('function');

  await deliver({
    kind: 'message',
    title: 'Iris',
    body: 'held',
    ts: Date.now(),
    lane: 'c-held',
    chat_id: 'c-held',
    message_id: 'm-held',
  });
  // The worker waits for the lock before it reads and shows; the app's sweep (a route change) does too.
  await expect.poll(waiting).toBe(1);
  await page.evaluate(() => (location.hash = '#/settings?again'));
  await expect.poll(waiting).toBeGreaterThanOrEqual(2);
  await page.evaluate(() => (window as unknown as { releaseLock: () => void }).releaseLock());
  await expect.poll(async () => (await shown(page, 'lane:c-held')).map((n) => n.body)).toEqual(['held']);
  await expect.poll(waiting).toBe(0);
});

test('a push shows a notification (title, tag, actions); none while its lane is on screen; a click opens the lane at the message', async ({
  page,
  context,
  iris,
  subscriber,
}) => {
  const { deliver } = await notificationsOn(page, iris, subscriber);

  await deliver({
    kind: 'approval',
    title: 'Approval needed',
    body: 'Run make deploy?',
    ts: Date.now(),
    lane: LANE,
    chat_id: LANE,
    picker_id: 'pick_1',
  });
  await expect.poll(() => shown(page, 'picker:pick_1')).toHaveLength(1);
  const [approval] = await shown(page, 'picker:pick_1');
  expect(approval).toMatchObject({ title: 'Approval needed', body: 'Run make deploy?', tag: 'picker:pick_1' });
  expect(approval!.actions).toEqual([
    { action: 'once', title: 'Approve once' },
    { action: 'deny', title: 'Deny' },
  ]);
  expect(approval!.data).toMatchObject({ kind: 'approval', lane: LANE, picker_id: 'pick_1' });

  // Two replies in one lane: one notification, replaced, with a count.
  await deliver({
    kind: 'message',
    title: 'Iris',
    body: 'first',
    ts: Date.now(),
    lane: 'c-other',
    chat_id: 'c-other',
    message_id: 'm1',
  });
  await deliver({
    kind: 'message',
    title: 'Iris',
    body: 'second',
    ts: Date.now(),
    lane: 'c-other',
    chat_id: 'c-other',
    message_id: 'm2',
  });
  await expect
    .poll(async () => (await shown(page, 'lane:c-other')).map((n) => n.body))
    .toEqual(['2 new messages\nsecond']);
  // Just after showing one, Chromium may not list it yet (under load): the count holds all the same.
  // Here the worker's lookup misses it every time.
  await serviceWorker(context).evaluate(() => {
    const proto = ServiceWorkerRegistration.prototype;
    const list = proto.getNotifications;
    proto.getNotifications = function (this: ServiceWorkerRegistration, filter?: GetNotificationOptions) {
      return filter?.tag === 'lane:c-unlisted' ? Promise.resolve([]) : list.call(this, filter);
    };
  });
  for (const [body, message_id] of [
    ['one', 'u1'],
    ['two', 'u2'],
  ])
    await deliver({
      kind: 'message',
      title: 'Iris',
      body,
      ts: Date.now(),
      lane: 'c-unlisted',
      chat_id: 'c-unlisted',
      message_id,
    });
  await expect
    .poll(async () => (await shown(page, 'lane:c-unlisted')).map((n) => n.body))
    .toEqual(['2 new messages\ntwo']);

  // The lane on screen gets no notification (the in-app toast shows it); another lane still does.
  await page.goto(`${iris.baseURL}/#/c/${encodeURIComponent(LANE)}`);
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  expect(await page.evaluate(() => document.visibilityState)).toBe('visible');
  await deliver({
    kind: 'message',
    title: 'Iris',
    body: 'on screen',
    ts: Date.now(),
    lane: LANE,
    chat_id: LANE,
    message_id: 'm3',
  });
  await deliver({
    kind: 'message',
    title: 'Iris',
    body: 'elsewhere',
    ts: Date.now(),
    lane: 'c-third',
    chat_id: 'c-third',
    message_id: 'm4',
  });
  await expect.poll(() => shown(page, 'lane:c-third')).toHaveLength(1);
  expect(await shown(page, `lane:${LANE}`)).toEqual([]);
  // Opening a lane in the app clears its notification.
  await page.goto(`${iris.baseURL}/#/c/c-third`);
  await expect.poll(() => shown(page, 'lane:c-third')).toEqual([]);
  // Seen, the lane's count starts again: its next notification stands for one message.
  await page.goto(`${iris.baseURL}/#/settings`);
  await deliver({
    kind: 'message',
    title: 'Iris',
    body: 'later',
    ts: Date.now(),
    lane: 'c-third',
    chat_id: 'c-third',
    message_id: 'm5',
  });
  await expect.poll(async () => (await shown(page, 'lane:c-third')).map((n) => n.body)).toEqual(['later']);

  // A click (no action) opens the lane at the message in the open window.
  await page.goto(`${iris.baseURL}/#/settings`);
  await clickNotification(serviceWorker(context), 'lane:c-other');
  // (The address names the message until the lane has looked for it: this push's message is not stored.)
  await expect(page).toHaveURL(/#\/c\/c-other(\?m=m2)?$/);
  await expect.poll(() => shown(page, 'lane:c-other')).toEqual([]);
});

test('"Approve once" with no window open: the service worker answers over its own connection and the agent continues', async ({
  page,
  context,
  iris,
  pushService,
  subscriber,
}) => {
  const { deliver } = await notificationsOn(page, iris, subscriber);

  // An approval is pushed even to a live device: the real push, decrypted, is what the worker gets.
  const { approval, tag } = await approvalPushed(page, iris, pushService, subscriber, '/approve make deploy');
  await expect(page.getByRole('dialog', { name: /approv/i })).toBeVisible();
  expect(approval).toMatchObject({ kind: 'approval', lane: LANE });

  await page.goto(`${iris.baseURL}/#/settings`);
  await deliver(approval);
  await expect
    .poll(async () => (await shown(page, tag)).map((n) => n.actions.map((a) => a.action)))
    .toEqual([['once', 'deny']]);

  // Close the app: no window is left to answer through.
  const worker = serviceWorker(context);
  await page.close();
  await expect.poll(() => iris.server.gateway!.connectionCount()).toBe(0);
  await clickNotification(worker, tag, 'once');

  const replies = () => iris.server.gateway!.store.messages(LANE).map((m) => m.text);
  await expect.poll(replies, { timeout: 15_000 }).toContain('Approved once: `make deploy`');
  // The notification now says what happened.
  await expect
    .poll(async () => (await workerNotifications(worker, tag)).map(([title, body]) => [title, body]))
    .toEqual([['Approved once', 'Run make deploy?']]);

  // The worker applied what it received to the DB: the reopened app shows the reply at once.
  const reopened = await context.newPage();
  await reopened.goto(`${iris.baseURL}/#/c/${encodeURIComponent(LANE)}`);
  await expect(
    reopened
      .getByRole('log', { name: 'Messages' })
      .getByRole('article')
      .filter({ hasText: 'Approved once: make deploy' }),
  ).toBeVisible();
});

test('with a window open, the action goes through the app’s connection; a stale answer ends in words', async ({
  page,
  context,
  iris,
  pushService,
  subscriber,
}) => {
  const { deliver } = await notificationsOn(page, iris, subscriber);
  const { approval, tag } = await approvalPushed(page, iris, pushService, subscriber, '/approve rm -rf build');
  await page.goto(`${iris.baseURL}/#/settings`);
  await deliver(approval);
  await expect.poll(() => shown(page, tag)).toHaveLength(1);

  const worker = serviceWorker(context);
  const gateway = iris.server.gateway!;
  const before = gateway.connectionCount();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, gateway.connectionCount())), 5);
  await clickNotification(worker, tag, 'deny');
  await expect
    .poll(() => gateway.store.messages(LANE).map((m) => m.text), { timeout: 15_000 })
    .toContain('Denied: `rm -rf build`');
  await expect.poll(async () => (await shown(page, tag)).map((n) => n.title)).toEqual(['Denied']);
  clearInterval(sampler);
  // Answered through the window's own socket: the worker opened none.
  expect(peak).toBe(before);

  // The same notification again (a duplicate push): the answer is refused, the notification says why.
  await deliver(approval);
  await expect.poll(async () => (await shown(page, tag)).map((n) => n.actions.length)).toEqual([2]);
  await clickNotification(worker, tag, 'once');
  await expect.poll(async () => (await shown(page, tag)).map((n) => n.title)).toEqual(['Not answered']);
  expect((await shown(page, tag))[0]!.body).toMatch(/already answered/i);

  // A question answered in the app: its notification goes away.
  await sendInLane(page, iris, '/approve make clean');
  const dialog = page.getByRole('dialog', { name: 'Approve this command?' });
  await expect(dialog).toBeVisible();
  const [, second] = await pushService.waitForPushes(2, 10_000);
  const question = decrypted(second!.body, subscriber);
  const questionTag = `picker:${String(question.picker_id)}`;
  // Pushed while the user is elsewhere in the app (the lane itself would get the in-app dialog only).
  await page.goto(`${iris.baseURL}/#/settings`);
  await deliver(question);
  await expect.poll(() => shown(page, questionTag)).toHaveLength(1);
  await page.goto(`${iris.baseURL}/#/c/${encodeURIComponent(LANE)}`);
  await dialog.getByRole('button', { name: 'Once' }).click();
  await expect
    .poll(() => gateway.store.messages(LANE).map((m) => m.text), { timeout: 15_000 })
    .toContain('Approved once: `make clean`');
  await expect.poll(() => shown(page, questionTag)).toEqual([]);
});

test('proxy mode: a gateway that only knows ntfy gets a relay topic; what it publishes there reaches this browser encrypted', async ({
  page,
  pushService,
  subscriber,
}) => {
  // A "real" gateway without Web Push that publishes to ntfy (server_caps.push: ntfy), behind the serving
  // process's relay. (One that says fcm or none cannot wake a browser: see e2e/quirks.spec.ts.)
  const token = 'proxy-token-' + Math.random().toString(36).slice(2);
  const upstream = await startGateway({ token, streamDelayMs: 1, quirks: { push: 'ntfy' } });
  const dataDir = mkdtempSync(join(tmpdir(), 'iris-e2e-proxy-'));
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    distDir: resolve('dist'),
    dataDir,
    upstream: upstream.url,
    push: pushOptions(pushService),
  });
  const baseURL = `http://127.0.0.1:${server.port}`;
  const iris: IrisServer = {
    baseURL,
    origin: baseURL,
    gatewayUrl: server.wsUrl,
    token,
    pairingLink: pairingLink(baseURL, token),
    server,
    dataDir,
  };
  try {
    await setUp(page, iris, subscriber);
    await turnOn(page, iris);
    await expect(page.getByText('This server’s ntfy relay (the gateway publishes to ntfy)')).toBeVisible();
    const ntfyTopic = () =>
      upstream.gateway.store.devices.list().find((d) => d.target.mode === 'ntfy')?.target.ntfy_topic;
    await expect.poll(ntfyTopic).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const topic = ntfyTopic()!;
    expect(server.push!.relay.store.list(topic).map((s) => s.endpoint)).toEqual([subscriber.subscription.endpoint]);

    // The gateway's ntfy client publishes to the relay exactly as to ntfy.sh.
    const published = await fetch(`${baseURL}/push/ntfy/${topic}`, {
      method: 'POST',
      headers: { Title: 'Approval needed', Tags: 'approval', Priority: 'high', Click: `${baseURL}/#/c/web%3Adefault` },
      body: 'Run make deploy?',
    });
    expect(published.status).toBe(200);
    const [push] = await pushService.waitForPushes(1, 10_000);
    expect(decrypted(push!.body, subscriber)).toMatchObject({
      source: 'ntfy',
      kind: 'approval',
      title: 'Approval needed',
      body: 'Run make deploy?',
    });

    // Off: the relay forgets this browser.
    await notificationSwitch(page).click();
    await expect(statusWords(page)).toHaveText('Off');
    expect(server.push!.relay.store.list(topic)).toEqual([]);
  } finally {
    await server.close();
    await upstream.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('permission is asked only when the switch is turned on; blocked and unsupported are said in words', async ({
  browser,
  iris,
}) => {
  // Not granted: count the prompts (headless Chromium dismisses them; the answer stays "default").
  const asking = await browser.newContext();
  await asking.addInitScript(() => {
    const original = Notification.requestPermission.bind(Notification);
    (window as unknown as { prompts: number }).prompts = 0;
    Notification.requestPermission = (() => {
      (window as unknown as { prompts: number }).prompts++;
      return original();
    }) as typeof Notification.requestPermission;
  });
  const page = await asking.newPage();
  await pair(page, iris);
  await page.goto(`${iris.baseURL}/#/settings`);
  await expect(statusWords(page)).toHaveText('Off');
  await expect(page.getByRole('button', { name: 'Send test notification' })).toBeDisabled();
  expect(await page.evaluate(() => (window as unknown as { prompts: number }).prompts)).toBe(0);
  await notificationSwitch(page).click();
  await expect(page.getByRole('alert')).toContainText(/not allowed|blocked/);
  expect(await page.evaluate(() => (window as unknown as { prompts: number }).prompts)).toBe(1);
  await expect(notificationSwitch(page)).not.toBeChecked();
  await asking.close();

  // The person answers the prompt with Block: said once, in red, not also in a grey sentence above it.
  const denying = await browser.newContext();
  await denying.addInitScript(() => {
    let answer: NotificationPermission = 'default';
    Object.defineProperty(Notification, 'permission', { get: () => answer });
    Notification.requestPermission = (() => {
      answer = 'denied';
      return Promise.resolve(answer);
    }) as typeof Notification.requestPermission;
  });
  const denyingPage = await denying.newPage();
  await pair(denyingPage, iris);
  await denyingPage.goto(`${iris.baseURL}/#/settings`);
  await notificationSwitch(denyingPage).click();
  await expect(denyingPage.getByRole('alert')).toContainText('Notifications are blocked for this site.');
  await expect(statusWords(denyingPage)).toHaveText('Blocked in browser settings');
  await expect(denyingPage.getByText(/then turn them on here/)).toHaveCount(0);
  await denying.close();

  // Blocked in the browser's site settings (a state a test cannot reach through the browser UI).
  const blocked = await browser.newContext();
  await blocked.addInitScript(() => Object.defineProperty(Notification, 'permission', { get: () => 'denied' }));
  const blockedPage = await blocked.newPage();
  await pair(blockedPage, iris);
  await blockedPage.goto(`${iris.baseURL}/#/settings`);
  await expect(statusWords(blockedPage)).toHaveText('Blocked in browser settings');
  await expect(blockedPage.getByText(/then turn them on here/)).toBeVisible();
  await expect(notificationSwitch(blockedPage)).toBeDisabled();
  await blocked.close();

  // A browser without Web Push.
  const old = await browser.newContext();
  await old.addInitScript(() => delete (window as unknown as { PushManager?: unknown }).PushManager);
  const oldPage = await old.newPage();
  await pair(oldPage, iris);
  await oldPage.goto(`${iris.baseURL}/#/settings`);
  await expect(statusWords(oldPage)).toHaveText('Not supported in this browser');
  await expect(notificationSwitch(oldPage)).toBeDisabled();
  await old.close();
});
