// Issue 16.10, polish: finger-sized controls in a conversation, times in the locale's own form, error
// toasts in the gateway's words, "Notifications" once in Settings, and a failed push subscription
// explained in words instead of the browser's raw message.
import { smallTargets } from './audit';
import {
  channelAction,
  expect,
  hermes,
  LANE,
  messageBox,
  messages,
  pair,
  pairAndOpen,
  sendMessage,
  settled,
  test,
} from './support';

test.use({ viewport: { width: 412, height: 915 }, hasTouch: true, isMobile: true, locale: 'en-US', timezoneId: 'UTC' });

test('a conversation: every action is at least 44×44 px, and times read "7:05 AM", not "07:05 AM"', async ({
  page,
  iris,
}) => {
  const sevenOhFive = new Date();
  sevenOhFive.setUTCHours(7, 5, 0, 0);
  iris.server.gateway!.store.conversations.append({
    lane: LANE,
    role: 'user',
    text: 'An early question',
    ts: sevenOhFive.getTime(),
  });
  await pairAndOpen(page, iris);
  const early = messages(page).getByRole('article').filter({ hasText: 'An early question' });
  await expect(early.locator('.msg-time')).toHaveText(/^7:05\sAM$/);

  await messageBox(page).fill('Plan my week');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(messages(page).getByText('— Iris demo agent').last()).toBeVisible({ timeout: 30_000 });
  // The turn's reasoning and tools lines, Copy code: all there, all finger-sized (a message's own
  // actions show on a tap: the next test).
  for (const name of [/^Thought/, /^Used \d+ tools?/, 'Copy code'])
    await expect(messages(page).getByRole('button', { name }).first()).toBeAttached();
  expect(await smallTargets(page)).toEqual([]);
});

test("on a touch screen, a message's actions are not there until it is tapped; then each is finger-sized and works", async ({
  page,
  iris,
}) => {
  await pairAndOpen(page, iris);
  await sendMessage(page, 'Plan my week');
  const answer = hermes(page, 'Echo: Plan my week');
  await expect(answer).toHaveAttribute('aria-busy', 'false');
  const actions = answer.getByRole('group', { name: 'Message actions' });
  // Not invisible-but-tappable: not there at all, so a stray tap on the header hits nothing.
  await expect(actions).toBeHidden();

  await answer.locator('.md p').first().tap();
  await expect(actions).toBeVisible();
  for (const name of ['Reply', 'Copy', 'Delete']) {
    const box = (await actions.getByRole('button', { name }).boundingBox())!;
    expect(box.width, name).toBeGreaterThanOrEqual(44);
    expect(box.height, name).toBeGreaterThanOrEqual(44);
  }
  expect(await smallTargets(page)).toEqual([]);
  await actions.getByRole('button', { name: 'Reply' }).tap();
  await expect(page.getByText('Replying to Iris demo agent')).toBeVisible();
  // Done with it: the actions go again once the message is left.
  await messageBox(page).tap();
  await expect(actions).toBeHidden();
});

test('on a touch screen, a tapped button does not keep its hover look afterwards', async ({ page, iris }) => {
  await pairAndOpen(page, iris);
  expect(await page.evaluate(() => matchMedia('(hover: none)').matches), 'a touch screen').toBe(true);
  const search = page.getByRole('button', { name: 'Search' });
  const background = () => search.evaluate((el) => getComputedStyle(el).backgroundColor);
  const resting = await background();
  // The finger's last position stays "hovered" on a phone: the button must look as it did.
  await search.hover();
  expect(await background()).toBe(resting);
  const attach = page.getByRole('button', { name: 'Attach' });
  const attachResting = await attach.evaluate((el) => getComputedStyle(el).backgroundColor);
  await attach.hover();
  expect(await attach.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(attachResting);
});

test.describe('with a mouse', () => {
  test.use({ viewport: { width: 1280, height: 800 }, hasTouch: false, isMobile: false });

  test('a button under the pointer shows its hover look', async ({ page, iris }) => {
    await pairAndOpen(page, iris);
    const search = page.getByRole('button', { name: 'Search' });
    const background = () => search.evaluate((el) => getComputedStyle(el).backgroundColor);
    const resting = await background();
    await search.hover();
    await expect.poll(background).not.toBe(resting);
  });

  test("in a narrow window, a reply's header keeps the agent's name on one line; its actions float over it on hover", async ({
    page,
    iris,
  }) => {
    await page.setViewportSize({ width: 380, height: 800 });
    await pairAndOpen(page, iris);
    await sendMessage(page, 'a narrow window');
    const reply = hermes(page, 'a narrow window');
    await expect(reply).toBeVisible();
    const author = reply.locator('.msg-author');
    const time = reply.locator('.msg-head .msg-time');
    const oneLine = async () => {
      const [a, t] = [await author.boundingBox(), await time.boundingBox()];
      return {
        authorHeight: Math.round(a!.height),
        sameLine: Math.abs(a!.y + a!.height / 2 - (t!.y + t!.height / 2)) < 4,
      };
    };
    // 14 px text on one line is ~17–20 px tall; wrapped, twice that.
    expect((await oneLine()).authorHeight).toBeLessThan(24);
    expect((await oneLine()).sameLine).toBe(true);
    await reply.hover();
    const actions = reply.getByRole('group', { name: 'Message actions' });
    await expect(actions.getByRole('button', { name: 'Copy' })).toBeVisible();
    expect((await oneLine()).authorHeight).toBeLessThan(24);
    // The floating bar stays inside the window.
    const bar = await actions.boundingBox();
    expect(bar!.x + bar!.width).toBeLessThanOrEqual(380);
  });
});

test('an error from the gateway is titled in its own words, not by its code', async ({ page, iris }) => {
  let toApp: ((frame: string) => void) | undefined;
  await page.routeWebSocket(/\/ws$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => server.send(m));
    server.onMessage((m) => ws.send(m));
    toApp = (frame) => ws.send(frame);
  });
  await pairAndOpen(page, iris);
  toApp!(
    JSON.stringify({
      v: 1,
      type: 'error',
      payload: { code: 'not_found', message: 'No turn is in progress in this lane to steer.' },
    }),
  );
  await expect(page.getByText('No turn is in progress in this lane to steer.')).toBeVisible();
  await expect(page.getByText('That no longer exists on the gateway.')).toHaveCount(0);
});

test("a refused action says why in the gateway's own words; ours only when it gave none", async ({ page, iris }) => {
  iris.server.gateway!.store.conversations.append({ lane: LANE, role: 'user', text: 'Keep this one', ts: Date.now() });
  // The real demo gateway, except that it refuses deleting a message (with its reason) and setting the
  // default channel (with no words at all).
  await page.routeWebSocket(/\/ws$/, (ws) => {
    const server = ws.connectToServer();
    const refuse = (id: unknown, payload: Record<string, unknown>) =>
      ws.send(JSON.stringify({ v: 1, type: 'error', id, payload }));
    ws.onMessage((m) => {
      const frame = typeof m === 'string' ? (JSON.parse(m) as { type?: string; id?: number }) : {};
      if (frame.type === 'message.delete')
        return refuse(frame.id, {
          code: 'unsupported',
          message: 'Messages in this channel are kept for the audit log.',
        });
      if (frame.type === 'channel.set_default') return refuse(frame.id, { code: 'unsupported' });
      server.send(m);
    });
    server.onMessage((m) => ws.send(m));
  });
  await pairAndOpen(page, iris);
  const toasts = page.getByRole('list', { name: 'Notifications' }).getByRole('listitem');

  const kept = messages(page)
    .getByRole('article', { name: /^You, / })
    .filter({ hasText: 'Keep this one' });
  await kept.click();
  await kept.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete this message?' }).getByRole('button', { name: 'Delete' }).click();
  const refused = toasts.filter({ hasText: 'Could not delete the message' });
  await expect(refused).toContainText('Messages in this channel are kept for the audit log.');
  await expect(refused).not.toContainText('The gateway does not support this.');
  await expect(kept).toBeVisible();

  await page.getByRole('button', { name: 'Channels' }).click();
  await channelAction(page, 'Demo', 'Set as default');
  await expect(toasts.filter({ hasText: 'Could not set the default channel' })).toContainText(
    'The gateway does not support this.',
  );
});

test('Settings says "Notifications" once; the switch keeps that name and is finger-sized', async ({ page, iris }) => {
  await pair(page, iris);
  await page.goto(`${iris.baseURL}/#/settings`);
  const sw = page.getByRole('switch', { name: 'Notifications' });
  await expect(sw).toBeVisible();
  await expect(page.getByText('Notifications', { exact: true })).toHaveCount(1);
  const box = (await sw.boundingBox())!;
  expect(box.width).toBeGreaterThanOrEqual(44);
  expect(box.height).toBeGreaterThanOrEqual(44);
});

test('a push subscription the browser refuses is explained in words, not "(Registration failed - permission denied)"', async ({
  browser,
  iris,
}) => {
  const context = await browser.newContext({ viewport: { width: 412, height: 915 } });
  await context.grantPermissions(['notifications']);
  await context.addInitScript(() => {
    PushManager.prototype.subscribe = () =>
      Promise.reject(new DOMException('Registration failed - permission denied', 'NotAllowedError'));
  });
  const page = await context.newPage();
  await pair(page, iris);
  await page.goto(`${iris.baseURL}/#/settings`);
  await page.getByRole('switch', { name: 'Notifications' }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('did not let Iris subscribe to notifications', { timeout: 20_000 });
  await expect(alert).not.toContainText('Registration failed');
  await context.close();
});

test('opening the app, paired, and reloading it logs nothing to the console', async ({ page, iris }) => {
  const logged: string[] = [];
  page.on('console', (message) => logged.push(`${message.type()}: ${message.text()}`));
  await pairAndOpen(page, iris);
  await page.reload();
  await expect(messageBox(page)).toBeVisible();
  await settled(page);
  // A header the browser does not understand (a Permissions-Policy feature it lacks) is logged on every load.
  expect(logged).toEqual([]);
});
