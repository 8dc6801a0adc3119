// Issue 16, point 8, "People lose their place": a thread names its channel and leads back to it;
// Search and Settings lead back on phones; "Jump to latest" when scrolled up; the lane being read
// shows no unread count while a reply streams into it.
import { rmSync } from 'node:fs';
import type { Page } from '@playwright/test';
import {
  expect,
  launchServer,
  test,
  DESKTOP,
  PHONE,
  channelLink,
  channelsNav,
  pageTitle,
  pairAndOpen,
  seedLongLane,
  sendMessage,
  anotherDeviceSays,
} from './support';

function log(page: Page) {
  return page.getByRole('log', { name: 'Messages' });
}

for (const [device, viewport] of [
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const) {
  test(`a thread names its channel and leads back to it (${device})`, async ({ page, iris }) => {
    await page.setViewportSize(viewport);
    await pairAndOpen(page, iris);
    await expect(pageTitle(page)).toHaveText('General');
    await sendMessage(page, '/thread plan a trip');
    await expect(page).toHaveURL(/#\/c\/web%3Adefault\/t\/[^/]+$/);
    const banner = page.getByRole('banner');
    await expect(banner).toContainText('Thread in General');
    const back = banner.getByRole('button', { name: 'Back to General' });
    await expect(back).toBeVisible();
    await back.click();
    await expect(page).toHaveURL(/#\/c\/web%3Adefault$/);
    await expect(pageTitle(page)).toHaveText('General');
    await expect(banner).not.toContainText('Thread in');
    await expect(banner.getByRole('button', { name: /^Back/ })).toHaveCount(0);
    // The arrow was the browser's Back: the system Back now leaves General, not back into the thread.
    await page.goBack();
    await expect(page).not.toHaveURL(/\/t\//);
  });
}

test('on a phone, Search and Settings lead back to the lane they were opened from', async ({ page, iris }) => {
  await page.setViewportSize(PHONE);
  await pairAndOpen(page, iris);
  await page.getByRole('button', { name: 'Channels' }).click();
  await channelLink(page, 'Demo').click();
  await expect(pageTitle(page)).toHaveText('Demo');
  const banner = page.getByRole('banner');
  for (const where of ['Search', 'Settings'] as const) {
    await banner.getByRole('button', { name: where }).click();
    await expect(pageTitle(page)).toHaveText(where);
    // The way back takes the drawer button's place.
    await expect(banner.getByRole('button', { name: 'Channels' })).toHaveCount(0);
    const back = banner.getByRole('button', { name: 'Back' });
    const [backBox, titleBox] = await Promise.all([back.boundingBox(), pageTitle(page).boundingBox()]);
    expect(backBox!.x).toBeLessThan(titleBox!.x);
    await back.click();
    await expect(pageTitle(page)).toHaveText('Demo');
    await expect(banner.getByRole('button', { name: 'Channels' })).toBeVisible();
  }
  // Each arrow was the browser's Back: the system Back now leaves Demo for General, never Settings or Search.
  await page.goBack();
  await expect(pageTitle(page)).toHaveText('General');
});

test('on a phone, the Channels button says how many messages are unread in the other lanes', async ({ page, iris }) => {
  await page.setViewportSize(PHONE);
  await pairAndOpen(page, iris);
  await expect(pageTitle(page)).toHaveText('General');
  const banner = page.getByRole('banner');
  await expect(banner.getByRole('button', { name: 'Channels', exact: true })).toBeVisible();
  // Another device talks in Demo: its message and the agent's reply are new there.
  await anotherDeviceSays(iris, 'web:demo', 'news for Demo');
  const channels = banner.getByRole('button', { name: 'Channels, 1 unread' });
  await expect(channels).toBeVisible();
  await expect(channels.locator('.topbar-unread')).toHaveText('1');
  await page.screenshot({ path: '/tmp/look/topbar-unread-phone.png' });
  // Read there, nothing is new elsewhere any more.
  await channels.click();
  await channelLink(page, 'Demo').click();
  await expect(pageTitle(page)).toHaveText('Demo');
  await expect(page.getByRole('log', { name: 'Messages' }).getByText('news for Demo').first()).toBeVisible();
  await expect(banner.getByRole('button', { name: 'Channels', exact: true })).toBeVisible();
  await expect(banner.locator('.topbar-unread')).toHaveCount(0);
});

test('on a desktop, the sidebar is the way around: Search and Settings get no back arrow', async ({ page, iris }) => {
  await page.setViewportSize(DESKTOP);
  await pairAndOpen(page, iris);
  await page.getByRole('banner').getByRole('button', { name: 'Settings' }).click();
  await expect(pageTitle(page)).toHaveText('Settings');
  await expect(page.getByRole('banner').getByRole('button', { name: /^Back/ })).toHaveCount(0);
  await expect(channelsNav(page)).toBeVisible();
});

test('scrolled up, "Jump to latest" appears and brings the newest message back', async ({ page, iris }) => {
  seedLongLane(iris, 80);
  await page.setViewportSize(PHONE);
  await pairAndOpen(page, iris);
  const newest = log(page).getByText('Message number 80', { exact: true });
  await expect(newest).toBeInViewport();
  const jump = page.getByRole('button', { name: 'Jump to latest' });
  await expect(jump).toHaveCount(0);
  await log(page).hover();
  await page.mouse.wheel(0, -2500);
  await expect(newest).not.toBeInViewport();
  await expect(jump).toBeVisible();
  // Above the composer, inside the list.
  const [jumpBox, composerBox] = await Promise.all([
    jump.boundingBox(),
    page.getByRole('textbox', { name: 'Message' }).boundingBox(),
  ]);
  expect(jumpBox!.y + jumpBox!.height).toBeLessThanOrEqual(composerBox!.y);
  expect(jumpBox!.width).toBeGreaterThanOrEqual(44);
  expect(jumpBox!.height).toBeGreaterThanOrEqual(44);
  await jump.click();
  await expect(newest).toBeInViewport();
  await expect(jump).toHaveCount(0);

  // From the keyboard: the button goes once the list is at its end, and the focus stays in the list
  // (not dropped to the page's body, where the next Tab starts from the top).
  await page.mouse.wheel(0, -2500);
  await expect(jump).toBeVisible();
  await jump.focus();
  await page.keyboard.press('Enter');
  await expect(newest).toBeInViewport();
  await expect(jump).toHaveCount(0);
  await expect(log(page)).toBeFocused();
});

test('the lane being read shows no unread count while a reply streams into it', async ({ page }) => {
  const iris = await launchServer({ streamDelayMs: 250 });
  try {
    await page.setViewportSize(DESKTOP);
    await pairAndOpen(page, iris);
    const general = channelLink(page, 'General');
    await expect(general).toHaveAttribute('aria-current', 'page');
    await page.evaluate(() => {
      const w = window as unknown as { __badges: string[]; __streamed: boolean };
      w.__badges = [];
      w.__streamed = false;
      new MutationObserver(() => {
        if (document.querySelector('article[aria-busy="true"][aria-label^="Iris demo agent"]')) w.__streamed = true;
        const link = document.querySelector('nav[aria-label="Channels"] a[aria-current="page"]');
        const badge = link?.closest('.channel-row')?.querySelector('.unread-badge')?.textContent;
        const name = link?.getAttribute('aria-label') ?? link?.textContent ?? '';
        if (badge || /unread/.test(name))
          w.__badges.push(`${badge ?? name}:${!!document.querySelector(`article[aria-busy="true"]`)}`);
      }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    await sendMessage(page, 'Count these words while I watch');
    const reply = log(page)
      .getByRole('article', { name: /^Iris demo agent, / })
      .filter({ hasText: 'Iris demo agent' });
    await expect(reply).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
    await expect(general).not.toHaveAccessibleName(/unread/);
    const seen = await page.evaluate(() => {
      const w = window as unknown as { __badges: string[]; __streamed: boolean };
      return { badges: w.__badges, streamed: w.__streamed };
    });
    expect(seen.streamed).toBe(true);
    expect(seen.badges).toEqual([]);
  } finally {
    await iris.server.close();
    rmSync(iris.dataDir, { recursive: true, force: true });
  }
});
