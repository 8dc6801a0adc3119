// Channels: the list a person sees (order, nesting, unread, archived) and every action on a
// channel, each checked on this device and on a second device paired with the same link.
import { rmSync } from 'node:fs';
import {
  expect,
  launchServer,
  test,
  DESKTOP,
  PHONE,
  anotherDeviceSays,
  channelAction,
  channelLink,
  channelRow,
  channelsNav,
  pageTitle,
  pairAndOpen,
  secondDevice,
  sendMessage,
  toast,
  topLevelNames,
} from './support';

test.use({ viewport: DESKTOP });

test('the default channel comes first, then favorites; another device sees the same order', async ({
  page,
  browser,
  iris,
}) => {
  await pairAndOpen(page, iris);
  await expect(channelLink(page, 'General')).toBeVisible();
  expect(await topLevelNames(page)).toEqual(['General', 'Demo']);
  await expect(channelLink(page, 'General')).toHaveAccessibleName(/default/);

  // A new channel goes last…
  await channelsNav(page).getByRole('button', { name: 'New channel' }).click();
  const dialog = page.getByRole('dialog', { name: 'New channel' });
  await dialog.getByLabel('Name').fill('Zeta');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();
  await expect(channelLink(page, 'Zeta')).toBeVisible();
  expect(await topLevelNames(page)).toEqual(['General', 'Demo', 'Zeta']);

  // …and a favorite moves up, right after the default.
  await channelAction(page, 'Zeta', 'Add to favorites');
  await expect(channelLink(page, 'Zeta')).toHaveAccessibleName(/favorite/);
  await expect.poll(() => topLevelNames(page)).toEqual(['General', 'Zeta', 'Demo']);

  const other = await secondDevice(browser, iris);
  await expect(channelLink(other, 'Zeta')).toHaveAccessibleName(/favorite/);
  expect(await topLevelNames(other)).toEqual(['General', 'Zeta', 'Demo']);

  // Unfavorite, seen live on the other device.
  await channelAction(page, 'Zeta', 'Remove from favorites');
  await expect.poll(() => topLevelNames(other)).toEqual(['General', 'Demo', 'Zeta']);
  await other.context().close();
});

test('create a channel and a thread, rename, icon and colour — on both devices', async ({ page, browser, iris }) => {
  await pairAndOpen(page, iris);
  const other = await secondDevice(browser, iris);

  await channelsNav(page).getByRole('button', { name: 'New channel' }).click();
  await page.getByRole('dialog', { name: 'New channel' }).getByLabel('Name').fill('Trips');
  await page.getByRole('button', { name: 'Create' }).click();
  // Creating a channel opens it.
  await expect(pageTitle(page)).toHaveText('Trips');
  await expect(channelLink(page, 'Trips')).toHaveAttribute('aria-current', 'page');
  await expect(channelLink(other, 'Trips')).toBeVisible();

  // A thread nests under its channel and opens.
  await channelAction(page, 'Trips', 'New thread');
  const threadDialog = page.getByRole('dialog', { name: 'New thread in Trips' });
  await threadDialog.getByLabel('Name').fill('Packing list');
  await threadDialog.getByRole('button', { name: 'Create' }).click();
  await expect(pageTitle(page)).toHaveText('Packing list');
  await expect(page).toHaveURL(/#\/c\/[^/]+\/t\/[^/]+$/);
  const threads = channelsNav(page).getByRole('list', { name: 'Threads in Trips' });
  await expect(threads.getByRole('link', { name: /^Packing list/ })).toBeVisible();
  await expect(
    channelsNav(other)
      .getByRole('list', { name: 'Threads in Trips' })
      .getByRole('link', { name: /^Packing list/ }),
  ).toBeVisible();

  // Rename: the list, the open lane's title, and the other device follow.
  await channelAction(page, 'Packing list', 'Rename');
  const rename = page.getByRole('dialog', { name: 'Rename Packing list' });
  await expect(rename.getByLabel('Name')).toHaveValue('Packing list');
  await rename.getByLabel('Name').fill('What to pack');
  await rename.getByRole('button', { name: 'Rename' }).click();
  await expect(pageTitle(page)).toHaveText('What to pack');
  await expect(channelLink(page, 'What to pack')).toBeVisible();
  await expect(channelLink(other, 'What to pack')).toBeVisible();
  await expect(channelLink(other, 'Packing list')).toHaveCount(0);

  // Icon and colour.
  await channelAction(page, 'Trips', 'Icon and colour');
  const look = page.getByRole('dialog', { name: 'Icon and colour of Trips' });
  await look.getByRole('button', { name: 'Use ✈️' }).click();
  await look.getByRole('radio', { name: 'Blue' }).check();
  await look.getByRole('button', { name: 'Save' }).click();
  await expect(look).toBeHidden();
  for (const p of [page, other]) {
    const icon = channelRow(p, 'Trips').locator('.channel-icon');
    await expect(icon).toHaveText('✈️');
    await expect(icon).toHaveCSS('background-color', 'rgb(59, 130, 246)');
  }
  await other.context().close();
});

test('set another default channel, archive one, and find it under "Show archived"', async ({ page, browser, iris }) => {
  await pairAndOpen(page, iris);
  const other = await secondDevice(browser, iris);

  await channelAction(page, 'Demo', 'Set as default');
  await expect.poll(() => topLevelNames(page)).toEqual(['Demo', 'General']);
  await expect(channelLink(page, 'Demo')).toHaveAccessibleName(/default/);
  await expect(channelLink(page, 'General')).not.toHaveAccessibleName(/default/);
  await expect.poll(() => topLevelNames(other)).toEqual(['Demo', 'General']);

  // The old default can now be archived, after a confirmation; archiving the lane on screen goes home.
  await channelLink(page, 'General').click();
  await expect(pageTitle(page)).toHaveText('General');
  await channelAction(page, 'General', 'Archive');
  const confirm = page.getByRole('dialog', { name: 'Archive General?' });
  await expect(confirm).toContainText('Its messages are kept');
  await confirm.getByRole('button', { name: 'Archive' }).click();
  await expect(channelLink(page, 'General')).toHaveCount(0);
  await expect(pageTitle(page)).toHaveText('Demo');
  await expect(channelLink(other, 'General')).toHaveCount(0);

  const toggle = channelsNav(page).getByRole('checkbox', { name: /Show archived/ });
  await toggle.check();
  await expect(channelLink(page, 'General')).toHaveAccessibleName(/archived/);
  await toggle.uncheck();
  await expect(channelLink(page, 'General')).toHaveCount(0);
  await other.context().close();
});

test('a lane with a new assistant message shows an unread count until it is opened', async ({ page, iris }) => {
  await pairAndOpen(page, iris);
  await expect(pageTitle(page)).toHaveText('General');

  // Another device talks in Demo; the agent answers there.
  await anotherDeviceSays(iris, 'web:demo', 'What is the weather like?');

  const demo = channelLink(page, 'Demo');
  await expect(demo).toHaveAccessibleName(/, 1 unread$/, { timeout: 20_000 });
  await expect(channelRow(page, 'Demo').locator('.unread-badge')).toHaveText(/^1/);
  // The preview shows the last message as plain text.
  await expect(channelRow(page, 'Demo').locator('.channel-preview')).not.toBeEmpty();

  await demo.click();
  await expect(pageTitle(page)).toHaveText('Demo');
  await expect(demo).not.toHaveAccessibleName(/unread/);
  await expect(channelRow(page, 'Demo').locator('.unread-badge')).toHaveCount(0);
});

test('/thread moves into the thread the gateway creates, and its title updates in place', async ({ page }) => {
  // A slower stream leaves time to see the first title before the gateway's better one.
  const iris = await launchServer({ streamDelayMs: 80 });
  try {
    await pairAndOpen(page, iris);
    await expect(pageTitle(page)).toHaveText('General');
    await sendMessage(page, '/thread plan a trip');
    await expect(page).toHaveURL(/#\/c\/web%3Adefault\/t\/[^/]+$/);
    const url = page.url();
    await expect(pageTitle(page)).toHaveText('plan a trip');
    const threads = channelsNav(page).getByRole('list', { name: 'Threads in General' });
    await expect(threads.getByRole('link', { name: /^(plan a trip|Re: Plan a trip)/ })).toHaveAttribute(
      'aria-current',
      'page',
    );
    // The gateway's better title arrives after the answer: same lane, new title.
    await expect(pageTitle(page)).toHaveText('Re: Plan a trip', { timeout: 20_000 });
    expect(page.url()).toBe(url);
    await expect(channelLink(page, 'Re: Plan a trip')).toHaveAttribute('aria-current', 'page');
  } finally {
    await iris.server.close();
    rmSync(iris.dataDir, { recursive: true, force: true });
  }
});

test('a thread minted while the user was in another lane does not pull them in later', async ({ page, iris }) => {
  await pairAndOpen(page, iris);
  await channelLink(page, 'Demo').click();
  await expect(pageTitle(page)).toHaveText('Demo');
  await anotherDeviceSays(iris, 'web:default', '/thread holiday ideas');
  const threads = channelsNav(page).getByRole('list', { name: 'Threads in General' });
  await expect(threads.getByRole('link', { name: /^holiday ideas|^Re: Holiday ideas/ })).toBeVisible();
  await expect(pageTitle(page)).toHaveText('Demo');

  await channelLink(page, 'General').click();
  await expect(pageTitle(page)).toHaveText('General');
  // A later turn in General, seen on screen, proves every frame before it has been applied: the
  // thread's frames had their chance to pull the person away, and did not.
  await anotherDeviceSays(iris, 'web:default', 'one more in General');
  await expect(page.getByRole('log', { name: 'Messages' }).getByText('one more in General').first()).toBeVisible();
  await expect(pageTitle(page)).toHaveText('General');
  await expect(page).toHaveURL(/#\/c\/web%3Adefault$/);
  // The sidebar lists the thread under its channel: no second way in the top bar of a desktop.
  await expect(page.getByRole('button', { name: /^Threads in General/ })).toHaveCount(0);
});

test.describe('on a phone', () => {
  test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

  test('a channel’s threads are one tap away from its top bar, with what is unread in them', async ({ page, iris }) => {
    await pairAndOpen(page, iris, 'web:demo');
    await expect(pageTitle(page)).toHaveText('Demo');
    await expect(page.getByRole('button', { name: /^Threads in Demo/ })).toHaveCount(0);
    // Started on another device while this one shows Demo: nothing in General's conversation says so.
    await anotherDeviceSays(iris, 'web:default', '/thread Plan the trip');
    await page.getByRole('button', { name: /^Channels/ }).click();
    await page
      .getByRole('dialog', { name: 'Channels' })
      .getByRole('link', { name: /^General/ })
      .click();
    await expect(pageTitle(page)).toHaveText('General');

    const threadsButton = page.getByRole('button', { name: /^Threads in General/ });
    await expect(threadsButton).toHaveAccessibleName('Threads in General, 1, new messages');
    await threadsButton.click();
    const menu = page.getByRole('menu', { name: 'Threads in General' });
    // The reply in it is unread; the gateway renames the thread after that reply.
    await expect(menu.getByRole('menuitem')).toHaveText([/^(Re: )?Plan the trip \(\d+ unread\)$/]);
    await menu.getByRole('menuitem').click();
    await expect(page).toHaveURL(/#\/c\/web%3Adefault\/t\/[^/]+$/);
    await expect(pageTitle(page)).toHaveText(/Plan the trip/);
    await expect(page.getByRole('log', { name: 'Messages' }).getByText('— Iris demo agent')).toBeVisible();

    // Back in the channel, the thread is read.
    await page.getByRole('button', { name: 'Back to General' }).click();
    await expect(pageTitle(page)).toHaveText('General');
    await expect(threadsButton).toHaveAccessibleName('Threads in General, 1');
    await threadsButton.click();
    await expect(menu.getByRole('menuitem')).toHaveText(['Re: Plan the trip']);
    // Closing it leaves the person where they were.
    await page.keyboard.press('Escape');
    await expect(menu).toHaveCount(0);
    await expect(pageTitle(page)).toHaveText('General');
  });
});

test.describe('on a first visit', () => {
  // The service worker, once it has installed, would serve the chunk from its cache past the route.
  test.use({ serviceWorkers: 'block' });

  test('a dialog whose code cannot be fetched says so in words, and opens once it can', async ({ page, iris }) => {
    // Cut off before the page was idle on a first visit: the worker does not serve it yet.
    const dialogsCode = /\/ChannelDialogs-[^/]*\.js$/;
    await page.route(dialogsCode, (route) => route.abort('internetdisconnected'));
    await pairAndOpen(page, iris);
    await expect(channelLink(page, 'Demo')).toBeVisible();
    const newChannel = channelsNav(page).getByRole('button', { name: 'New channel' });
    await newChannel.click();
    const failed = toast(page, 'Could not open that');
    await expect(failed).toBeVisible();
    await expect(failed).toContainText('not on this device yet');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    // Connected again: the same button opens the dialog.
    await page.unroute(dialogsCode);
    await newChannel.click();
    await expect(page.getByRole('dialog', { name: 'New channel' })).toBeVisible();
  });
});

test('offline, a channel action fails in words and keeps what was typed; a favorite fails as a toast', async ({
  page,
  iris,
}) => {
  await pairAndOpen(page, iris);
  await expect(channelLink(page, 'Demo')).toBeVisible();
  // As for a person who has had the page open a moment: the dialogs' code is fetched once the page is
  // idle (loadWhenIdle.ts). Cut off before that, on a first visit the worker does not serve yet, the
  // dialog could not open at all (CI, once: the server closed first).
  await expect
    .poll(() =>
      page.evaluate(() =>
        performance.getEntriesByType('resource').some((e) => /\/ChannelDialogs-[^/]*\.js$/.test(e.name)),
      ),
    )
    .toBe(true);
  await iris.server.close();
  await expect(page.locator('.connection-banner')).toBeVisible({ timeout: 15_000 });

  await channelsNav(page).getByRole('button', { name: 'New channel' }).click();
  const dialog = page.getByRole('dialog', { name: 'New channel' });
  await dialog.getByLabel('Name').fill('Trips');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(/gateway|connect/i, { timeout: 20_000 });
  await expect(dialog.getByLabel('Name')).toHaveValue('Trips');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await channelAction(page, 'Demo', 'Add to favorites');
  await expect(toast(page, 'Could not add to favorites')).toBeVisible({ timeout: 20_000 });
  await expect(channelLink(page, 'Demo')).not.toHaveAccessibleName(/favorite/);
});
