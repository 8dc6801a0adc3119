// Issue 16, point 2, "Toasts come back and never leave": what a person sees of notifications and
// errors. Fading is checked with Playwright's clock (time jumps ahead; nothing sleeps).
import type { Page, WebSocketRoute } from '@playwright/test';
import {
  expect,
  test,
  DESKTOP,
  channelLink,
  hermes,
  pageTitle,
  pairAndOpen,
  secondDevice,
  sendMessage,
  speakForGateway,
  storeRows,
  toast,
  toastList,
} from './support';

test.use({ viewport: DESKTOP });

const GENERAL = 'web:default';
const DEMO = 'web:demo';

/** The sync cursor this page has stored (it moves in the same transaction as the replayed frames). */
async function storedCursor(page: Page): Promise<number> {
  return Math.max(0, ...(await storeRows<{ cursor: number }>(page, 'sync')).map((r) => r.cursor));
}

test('news fades after ~5 s, errors after ~8 s; a toast asking for an answer stays until it is opened', async ({
  page,
  iris,
}) => {
  await page.clock.install();
  const speak = await speakForGateway(page, null);
  await pairAndOpen(page, iris);
  await expect(pageTitle(page)).toHaveText('General');

  speak({
    type: 'notification',
    chat_id: DEMO,
    payload: { kind: 'cron', title: 'Reminder', body: 'stand up', ts: Date.now() },
  });
  speak({ type: 'error', payload: { code: 'internal', message: 'The disk is full.' } });
  const news = toast(page, 'stand up');
  const error = toast(page, 'The disk is full.');
  await expect(news).toBeVisible();
  await expect(error).toBeVisible();
  await page.mouse.move(5, 880);

  await page.clock.fastForward(4_000);
  await expect(news).toBeVisible();
  await page.clock.fastForward(1_500);
  await expect(news).toHaveCount(0);
  await expect(error).toBeVisible();
  await page.clock.fastForward(3_000);
  await expect(error).toHaveCount(0);

  // An approval waiting in another lane: stays, and opening it leads to the question.
  speak({
    type: 'picker.approval',
    chat_id: DEMO,
    payload: { picker_id: 'p-deploy', command: 'make deploy --prod', description: 'Ship it.' },
  });
  speak({
    type: 'notification',
    chat_id: DEMO,
    payload: { kind: 'approval', title: 'Approval needed', body: 'Run make deploy --prod?', ts: Date.now() },
  });
  const ask = toast(page, 'Run make deploy --prod?');
  await expect(ask).toBeVisible();
  await page.clock.fastForward(20_000);
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: /Approval needed/ }).click();
  await expect(pageTitle(page)).toHaveText('Demo');
  await expect(page.getByRole('dialog', { name: 'Approve this command?' })).toBeVisible();
  await expect(ask).toHaveCount(0);
});

test('at most two at once, under the top bar, and the same event never twice', async ({ page, iris }) => {
  const speak = await speakForGateway(page, null);
  await pairAndOpen(page, iris);
  await expect(pageTitle(page)).toHaveText('General');
  const ts = Date.now();
  for (const [i, body] of ['one', 'two', 'three', 'four'].entries()) {
    speak({
      type: 'notification',
      chat_id: DEMO,
      payload: { kind: 'cron', title: 'Reminder', body: `reminder ${body}`, ts: ts + i },
    });
  }
  await expect(toast(page, 'reminder four')).toBeVisible();
  await expect(toast(page, 'reminder three')).toBeVisible();
  await expect(toastList(page).getByRole('listitem')).toHaveCount(2);

  const [bar, list] = await Promise.all([page.getByRole('banner').boundingBox(), toastList(page).boundingBox()]);
  expect(list!.y).toBeGreaterThanOrEqual(bar!.y + bar!.height);

  // Closing them brings up the older ones, and none comes back when the gateway sends it again.
  await toast(page, 'reminder four').getByRole('button', { name: 'Dismiss' }).click();
  await toast(page, 'reminder three').getByRole('button', { name: 'Dismiss' }).click();
  await expect(toast(page, 'reminder two')).toBeVisible();
  await toast(page, 'reminder two').getByRole('button', { name: 'Dismiss' }).click();
  await toast(page, 'reminder one').getByRole('button', { name: 'Dismiss' }).click();
  await expect(toastList(page).getByRole('listitem')).toHaveCount(0);
  speak({
    type: 'notification',
    chat_id: DEMO,
    payload: { kind: 'cron', title: 'Reminder', body: 'reminder four', ts: ts + 3 },
  });
  speak({
    type: 'notification',
    chat_id: DEMO,
    payload: { kind: 'cron', title: 'Reminder', body: 'a new one', ts: ts + 10 },
  });
  await expect(toast(page, 'a new one')).toBeVisible();
  await expect(toast(page, 'reminder four')).toHaveCount(0);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 412, height: 915 }, hasTouch: true, isMobile: true });

  test('over Settings, questions take their own room above the page instead of covering its top', async ({
    page,
    iris,
  }) => {
    const speak = await speakForGateway(page, null);
    await pairAndOpen(page, iris);
    await page.getByRole('button', { name: 'Settings' }).click();
    const gateway = page.getByRole('heading', { name: 'Gateway' });
    await expect(gateway).toBeVisible();
    for (const [kind, body] of [
      ['clarify', 'Which format should the summary use?'],
      ['approval', 'Run make deploy --prod?'],
    ] as const) {
      speak({ type: 'notification', chat_id: DEMO, payload: { kind, title: 'Question', body, ts: Date.now() } });
    }
    await expect(toastList(page).getByRole('listitem')).toHaveCount(2);
    const [list, heading] = await Promise.all([toastList(page).boundingBox(), gateway.boundingBox()]);
    // The Gateway card's heading sits below the toasts, uncovered.
    expect(heading!.y).toBeGreaterThanOrEqual(list!.y + list!.height);
    await expect(gateway).toBeInViewport();

    // Over a conversation they still float: the lane does not move when one comes.
    await page.getByRole('button', { name: 'Back' }).click();
    const log = page.getByRole('log', { name: 'Messages' });
    await expect(log).toBeVisible();
    const before = (await log.boundingBox())!.y;
    speak({
      type: 'notification',
      chat_id: DEMO,
      payload: { kind: 'cron', title: 'Reminder', body: 'stand up', ts: Date.now() },
    });
    await expect(toast(page, 'stand up')).toBeVisible();
    expect((await log.boundingBox())!.y).toBe(before);
  });
});

test('a reminder of the lane on screen raises no toast, then or after leaving it: its message is there', async ({
  page,
  iris,
}) => {
  const speak = await speakForGateway(page, null);
  await pairAndOpen(page, iris);
  await expect(pageTitle(page)).toHaveText('General');
  speak({
    type: 'notification',
    chat_id: GENERAL,
    payload: { kind: 'cron', title: 'Reminder', body: 'in this lane', ts: Date.now() },
  });
  // One of another lane, after it, still shows, and alone (the first would be on screen by now too).
  speak({
    type: 'notification',
    chat_id: DEMO,
    payload: { kind: 'cron', title: 'Reminder', body: 'in another lane', ts: Date.now() },
  });
  await expect(toast(page, 'in another lane')).toBeVisible();
  expect(await toastList(page).getByRole('listitem').allInnerTexts()).toEqual([
    expect.stringContaining('in another lane'),
  ]);
  // Recorded, and put away as seen: leaving the lane does not bring it up.
  await expect
    .poll(async () =>
      (await storeRows<{ body: string; done?: boolean }>(page, 'toasts')).some(
        (t) => t.body === 'in this lane' && t.done,
      ),
    )
    .toBe(true);
  await channelLink(page, 'Demo').click();
  await expect(pageTitle(page)).toHaveText('Demo');
  await expect(toast(page, 'in this lane')).toHaveCount(0);
});

test('a question open as a dialog gets no toast behind it', async ({ page, iris }) => {
  await pairAndOpen(page, iris);
  await expect(pageTitle(page)).toHaveText('General');
  // The demo raises an approval notification with the picker (pushed even to live devices).
  await sendMessage(page, '/approve make deploy --prod');
  const dialog = page.getByRole('dialog', { name: 'Approve this command?' });
  await expect(dialog).toBeVisible();
  // The notification came (it is recorded), and shows nowhere, not even behind the dialog.
  await expect
    .poll(async () => (await storeRows<{ kind: string }>(page, 'toasts')).some((t) => t.kind === 'approval'))
    .toBe(true);
  await expect(page.locator('.toasts .toast')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Once' }).click();
  await expect(dialog).toBeHidden();
  await expect(toastList(page).getByRole('listitem')).toHaveCount(0);
});

test('after a reconnect, nothing already dealt with or missed while away comes back as a toast', async ({
  page,
  iris,
}) => {
  await pairAndOpen(page, iris);
  await channelLink(page, 'Demo').click();
  await expect(pageTitle(page)).toHaveText('Demo');
  // An approval answered, and a reminder shown and closed.
  await sendMessage(page, '/approve make deploy --prod');
  const dialog = page.getByRole('dialog', { name: 'Approve this command?' });
  await dialog.getByRole('button', { name: 'Once' }).click();
  await expect(dialog).toBeHidden();
  await sendMessage(page, '/remind 1 stretch');
  await channelLink(page, 'General').click();
  const reminder = toast(page, 'stretch');
  await expect(reminder).toBeVisible({ timeout: 15_000 });
  await reminder.getByRole('button', { name: 'Dismiss' }).click();
  await expect(reminder).toHaveCount(0);

  // A reminder that fires while the app is closed.
  await sendMessage(page, '/remind 1 while you were away');
  const store = iris.server.gateway!.store;
  await expect
    .poll(() => store.messages(GENERAL).some((m) => m.role === 'user' && m.text.includes('while you were away')))
    .toBe(true);
  await page.goto('about:blank');
  await expect
    .poll(() => store.messages(GENERAL).some((m) => m.role === 'cron' && m.text.includes('while you were away')), {
      timeout: 15_000,
    })
    .toBe(true);

  // Back: the sync replay brings every frame since the last stored cursor, toasts included.
  const back = await returnTo(page, iris.baseURL, GENERAL);
  expect(back.syncedTo).toBeGreaterThan(0);
  // The missed reminder is in the lane; no toast for it or for anything before.
  await expect(page.getByRole('log', { name: 'Messages' })).toContainText('while you were away');
  await onlyNewNewsShows(page, back.speak, DEMO);
});

/**
 * Opens `lane` with the app's socket relayed, once the sync replay is applied (its cursor stored);
 * returns a way to speak for the gateway on that socket, and the cursor the replay ended at.
 */
async function returnTo(
  page: Page,
  baseURL: string,
  lane: string,
): Promise<{ speak: (frame: Record<string, unknown>) => void; syncedTo: number }> {
  let syncedTo = -1;
  let socket: WebSocketRoute | undefined;
  await page.routeWebSocket(/\/ws$/, (ws) => {
    socket = ws;
    const server = ws.connectToServer();
    server.onMessage((data) => {
      const frame = JSON.parse(String(data)) as { type: string; payload: { cursor?: number } };
      if (frame.type === 'sync.done') syncedTo = frame.payload.cursor ?? -1;
      ws.send(data);
    });
  });
  // From elsewhere, so the app starts afresh (a new socket) even where only the hash would change.
  await page.goto('about:blank');
  await page.goto(`${baseURL}/#/c/${encodeURIComponent(lane)}`);
  await expect.poll(() => syncedTo, { timeout: 15_000 }).toBeGreaterThanOrEqual(0);
  await expect.poll(() => storedCursor(page), { timeout: 15_000 }).toBeGreaterThanOrEqual(syncedTo);
  return { speak: (frame) => socket!.send(JSON.stringify({ v: 1, ...frame })), syncedTo };
}

/** Something new (in `lane`) now shows, and alone: whatever came before it would be on screen by then too. */
async function onlyNewNewsShows(
  page: Page,
  speak: (frame: Record<string, unknown>) => void,
  lane = GENERAL,
): Promise<void> {
  speak({
    type: 'notification',
    chat_id: lane,
    payload: { kind: 'cron', title: 'Reminder', body: 'fresh news', ts: Date.now() },
  });
  await expect(toast(page, 'fresh news')).toBeVisible();
  // Counted at once: a replayed toast would be on screen now (waiting could let it fade first).
  expect(await toastList(page).getByRole('listitem').allInnerTexts()).toEqual([expect.stringContaining('fresh news')]);
}

test('an approval, a question and a reminder raised and dealt with while this device was away raise no toast, by sync or by history', async ({
  page,
  browser,
  iris,
}) => {
  await pairAndOpen(page, iris);
  await page.goto('about:blank');
  // Gone for the gateway too: what follows is kept for this device, to be replayed.
  await expect.poll(() => iris.server.gateway!.connectionCount()).toBe(0);

  // Meanwhile, on another device: the agent asks twice (each with a notification) and is answered; a reminder fires.
  const other = await secondDevice(browser, iris);
  await channelLink(other, 'Demo').click();
  await expect(pageTitle(other)).toHaveText('Demo');
  await sendMessage(other, '/approve make deploy --prod');
  const approval = other.getByRole('dialog', { name: 'Approve this command?' });
  await approval.getByRole('button', { name: 'Once' }).click();
  await expect(approval).toBeHidden();
  await sendMessage(other, '/clarify');
  const question = other.getByRole('dialog', { name: 'Which format should the summary use?' });
  await question.getByRole('button', { name: 'Prose' }).click();
  await expect(question).toBeHidden();
  await expect(hermes(other, 'you answered')).toBeVisible();
  await sendMessage(other, '/remind 1 while you were away');
  const store = iris.server.gateway!.store;
  await expect
    .poll(() => store.messages(DEMO).some((m) => m.role === 'cron' && m.text.includes('while you were away')), {
      timeout: 15_000,
    })
    .toBe(true);
  await other.context().close();

  // Back here: the sync replay brings all of it (recorded, the lane shows it), and no toast or question pops up.
  const { speak } = await returnTo(page, iris.baseURL, DEMO);
  const log = page.getByRole('log', { name: 'Messages' });
  await expect(log).toContainText('while you were away');
  await expect(log).toContainText('you answered');
  await expect
    .poll(async () => (await storeRows<{ kind: string }>(page, 'toasts')).map((t) => t.kind).sort())
    .toEqual(expect.arrayContaining(['approval', 'clarify', 'cron']));
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await onlyNewNewsShows(page, speak);

  // A device paired only now gets the same conversation as a history page: no toast either.
  const fresh = await secondDevice(browser, iris);
  const { speak: freshSpeak } = await returnTo(fresh, iris.baseURL, DEMO);
  const freshLog = fresh.getByRole('log', { name: 'Messages' });
  await expect(freshLog).toContainText('while you were away');
  await expect(freshLog).toContainText('Approved once');
  await expect(fresh.getByRole('dialog')).toHaveCount(0);
  await onlyNewNewsShows(fresh, freshSpeak);
});
