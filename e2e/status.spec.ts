// Status and notifications: the connection banner (offline, back online, auth failed), the
// gateway's own health, and notification toasts that open their lane.
import type { Page, WebSocketRoute } from '@playwright/test';
import { messageFrame } from '../server/gateway/frames';
import {
  expect,
  launchServer,
  test,
  DESKTOP,
  LANE,
  channelLink,
  demoGateway,
  messages,
  openLane,
  pageTitle,
  pairAndOpen,
  sendMessage,
  toast,
  toastList,
} from './support';

test.use({ viewport: DESKTOP });

function banner(page: Page) {
  return page.locator('.connection-banner-slot');
}

test('an offline banner appears when the gateway goes away and leaves when it is back', async ({ page, iris }) => {
  await pairAndOpen(page, iris);
  await expect(pageTitle(page)).toHaveText('General');
  await expect(banner(page)).toBeEmpty();

  await iris.server.close();
  await expect(banner(page)).toHaveText(/Offline|Reconnecting/);
  await expect(banner(page)).toHaveAttribute('role', 'status');
  // The cached channels stay usable.
  await expect(channelLink(page, 'Demo')).toBeVisible();

  const port = new URL(iris.baseURL).port;
  const again = await launchServer({ port: Number(port), dataDir: iris.dataDir, token: iris.token });
  try {
    await expect(banner(page)).toBeEmpty({ timeout: 45_000 });
  } finally {
    await again.server.close();
  }
});

test('offline, "Try now" reconnects at once to a gateway that is back, not at the end of a long backoff, from any tab', async ({
  page,
  iris,
}) => {
  test.setTimeout(60_000);
  // Each wait of the reconnect backoff at its longest (full jitter drawn at the top): after four failed
  // attempts (0.5 + 1 + 2 + 4 s), the next waits 8 s.
  await page.context().addInitScript(() => (Math.random = () => 0.999));
  await pairAndOpen(page, iris);
  // A second tab: it shares the first tab's connection, and asks that tab to try.
  const other = await page.context().newPage();
  await openLane(other, { origin: iris.baseURL });
  await iris.server.close();
  await expect(banner(other)).toContainText('Offline');
  await page.waitForTimeout(8_000);
  const port = new URL(iris.baseURL).port;
  const again = await launchServer({ port: Number(port), dataDir: iris.dataDir, token: iris.token });
  try {
    const tryNow = banner(other).getByRole('button', { name: 'Try now' });
    await expect(tryNow).toBeVisible();
    await tryNow.click();
    await expect(banner(other)).toBeEmpty({ timeout: 3_000 });
    await expect(banner(page)).toBeEmpty();
  } finally {
    await again.server.close();
  }
});

test('the device losing its network says Offline within seconds, and comes back by itself', async ({
  page,
  context,
  iris,
}) => {
  await pairAndOpen(page, iris);
  await expect(banner(page)).toBeEmpty();
  await context.setOffline(true);
  // The browser's offline event: a ping with a short deadline, not the 10 s of the heartbeat.
  await expect(banner(page)).toHaveText(/Offline|Reconnecting/, { timeout: 6_000 });
  await context.setOffline(false);
  await expect(banner(page)).toBeEmpty({ timeout: 15_000 });
});

test('a refused token shows a banner with a way to pair again', async ({ page, iris }) => {
  await page.goto(`${iris.baseURL}/#/pair?url=${encodeURIComponent(iris.gatewayUrl)}&token=not-the-token`);
  await expect(page.getByRole('status').filter({ hasText: 'did not accept this token' })).toBeVisible();
  await page.goto(`${iris.baseURL}/#/settings`);
  await expect(banner(page)).toContainText('The gateway no longer accepts this device.');
  await banner(page).getByRole('link', { name: 'Pair again' }).click();
  await expect(page).toHaveURL(/#\/pair$/);
  await expect(page.getByLabel('Token')).toBeVisible();
});

test("the gateway's own trouble (status degraded/restarting) shows in words", async ({ page, iris }) => {
  // The demo gateway only ever says "online": the test speaks for it on the app's real socket.
  let socket: WebSocketRoute | undefined;
  await page.routeWebSocket(/\/ws$/, (ws) => {
    ws.connectToServer(); // everything else passes through untouched
    socket = ws;
  });
  await pairAndOpen(page, iris);
  await expect(pageTitle(page)).toHaveText('General');
  await expect(banner(page)).toBeEmpty();
  const status = (state: string) => socket!.send(JSON.stringify({ v: 1, type: 'status', payload: { state } }));

  status('degraded');
  await expect(banner(page)).toContainText('The gateway is having trouble. Replies may be slow or fail.');
  status('restarting');
  await expect(banner(page)).toContainText('The gateway is restarting');
  status('online');
  await expect(banner(page)).toBeEmpty();
});

test('a reminder shows as a toast that opens its lane, and toasts can be dismissed', async ({ page, iris }) => {
  await pairAndOpen(page, iris);
  await channelLink(page, 'Demo').click();
  await expect(pageTitle(page)).toHaveText('Demo');
  await sendMessage(page, '/remind 1 stretch');
  await channelLink(page, 'General').click();
  await expect(pageTitle(page)).toHaveText('General');

  const reminder = toastList(page).getByRole('button', { name: /Reminder\s*stretch/ });
  await expect(reminder).toBeVisible({ timeout: 15_000 });
  await reminder.focus();
  await page.keyboard.press('Enter');
  await expect(pageTitle(page)).toHaveText('Demo');
  await expect(reminder).toHaveCount(0);

  // Another one, dismissed with its close button (from another lane: the lane on screen shows its own
  // reminders as messages, with no toast).
  await sendMessage(page, '/remind 3 drink water');
  await channelLink(page, 'General').click();
  const second = toast(page, 'drink water');
  await expect(second).toBeVisible({ timeout: 15_000 });
  await second.getByRole('button', { name: 'Dismiss' }).click();
  await expect(second).toHaveCount(0);

  // Left alone (no pointer or focus on it), a toast goes away by itself.
  await sendMessage(page, '/remind 3 look away');
  await channelLink(page, 'Demo').click();
  const third = toast(page, 'look away');
  await expect(third).toBeVisible({ timeout: 15_000 });
  await page.mouse.move(5, 700);
  await expect(third).toHaveCount(0, { timeout: 15_000 });
});

test('an error the gateway sends on its own shows in plain words, never as markup', async ({ page, iris }) => {
  let socket: WebSocketRoute | undefined;
  await page.routeWebSocket(/\/ws$/, (ws) => {
    ws.connectToServer();
    socket = ws;
  });
  await pairAndOpen(page, iris);
  await expect(pageTitle(page)).toHaveText('General');
  socket!.send(
    JSON.stringify({
      v: 1,
      type: 'error',
      payload: { code: 'not_found', message: '<img src=x onerror="window.pwned=1">No turn to steer.' },
    }),
  );
  const shown = toast(page, 'No turn to steer.');
  await expect(shown).toBeVisible();
  await expect(shown).toContainText('<img src=x onerror="window.pwned=1">No turn to steer.');
  await expect(shown.locator('img')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
  await shown.getByRole('button', { name: 'Dismiss' }).click();
  await expect(shown).toHaveCount(0);
});

test('a device that was away catches up with a count in the banner, then shows the newest message', async ({
  page,
  context,
  iris,
}) => {
  await pairAndOpen(page, iris);
  await expect(pageTitle(page)).toHaveText('General');
  const gateway = demoGateway(iris);
  const [device] = gateway.store.devices.ids();
  await page.close();
  await expect.poll(() => gateway.connectionCount()).toBe(0);
  // While it was away the agent said 3,000 things: the gateway keeps each in the device's outbox (spec §8).
  const from = gateway.store.devices.get(device!)!.cursor;
  for (let i = 1; i <= 3000; i++) {
    const said = gateway.store.conversations.append({
      lane: LANE,
      role: 'assistant',
      text: `While you were away ${i}`,
    });
    gateway.store.devices.append(device!, messageFrame({ lane: LANE, chat_id: LANE }, said));
  }
  gateway.store.flush();
  expect(gateway.store.devices.get(device!)!.cursor - from).toBe(3000);

  const back = await context.newPage();
  // What a person would see, every frame: the banner, and whether any of the messages already stored shows.
  await back.addInitScript(() => {
    const seen: { banner: string; shown: boolean }[] = [];
    (window as unknown as { seen: typeof seen }).seen = seen;
    const look = () => {
      const banner = document.querySelector('.connection-banner-slot')?.textContent ?? '';
      const log = document.querySelector<HTMLElement>('[role=log][aria-label=Messages]');
      seen.push({ banner, shown: !!log && /While you were away \d+/.test(log.innerText) });
      requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  });
  await openLane(back, iris);
  await expect(messages(back).getByText('While you were away 3000', { exact: true })).toBeVisible({
    timeout: 60_000,
  });
  await expect(banner(back)).toBeEmpty();
  // Read from the frames, not asked of the page once the lane is open: on a loaded machine the lane's code
  // can arrive after the whole catch-up (about a second here), banner and all.
  const seen = await back.evaluate(() => (window as unknown as { seen: { banner: string; shown: boolean }[] }).seen);
  const counts = [...new Set(seen.map((s) => s.banner))].filter((text) => text.startsWith('Catching up'));
  expect(counts.length, 'a banner saying "Catching up"').toBeGreaterThan(0);
  for (const text of counts) expect(text).toMatch(/^Catching up: [\d,]+ of 3,0\d\d$/);
  // While it was catching up, the part already stored was on screen (not an empty lane until the end).
  const during = seen.filter((s) => /^Catching up: [1-9]/.test(s.banner));
  expect(during.length).toBeGreaterThan(0);
  expect(during.some((s) => s.shown)).toBe(true);
  // Read where it is open: the lane on screen keeps no unread count.
  await expect(channelLink(back, 'General')).not.toHaveAccessibleName(/unread/, { timeout: 15_000 });
});
