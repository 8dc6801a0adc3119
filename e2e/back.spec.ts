// The browser's Back with something open over the page (a menu, a dialog, the drawer, a question, the
// picture viewer) closes that, and leaves the person on the page they were reading. Closed another way,
// it leaves no step behind: Back then leads where it did before it opened. This is for browsers without
// close requests (Firefox, Safari: no CloseWatcher), where Back is a history step: Chromium's CloseWatcher
// is taken away before the app loads, and Playwright's goBack is that step.
import type { Page } from '@playwright/test';
import {
  DESKTOP,
  PHONE,
  anotherDeviceSays,
  channelAction,
  expect,
  openChannel,
  pageTitle,
  pairAndOpen,
  sendMessage,
  test,
} from './support';

const GENERAL = /#\/c\/web%3Adefault$/;

/**
 * An overlay closed by its button takes its history entry away in the next few milliseconds. A person's
 * Back comes later than that; Playwright's goBack may not: it reads the current entry and then goes to
 * the one before it by id, so a goBack sent while that entry is leaving lands on the page it was over.
 */
async function overlayEntryGone(page: Page) {
  await expect
    .poll(() => page.evaluate(() => (history.state as { irisOverlay?: boolean } | null)?.irisOverlay === true))
    .toBe(false);
}
const DEMO = /#\/c\/web%3Ademo$/;

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    delete (window as { CloseWatcher?: unknown }).CloseWatcher;
  });
});

test.describe('desktop', () => {
  test.use({ viewport: DESKTOP });

  test('Back closes a menu and a dialog, not the page; one closed by its button leaves no step behind', async ({
    page,
    iris,
  }) => {
    await pairAndOpen(page, iris);
    await openChannel(page, 'Demo');

    await page.getByRole('button', { name: 'Actions for Demo' }).click();
    const menu = page.getByRole('menu', { name: 'Actions for Demo' });
    await expect(menu).toBeVisible();
    await page.goBack();
    await expect(menu).toHaveCount(0);
    await expect(page).toHaveURL(DEMO);

    await channelAction(page, 'Demo', 'Rename');
    const dialog = page.getByRole('dialog', { name: 'Rename Demo' });
    await expect(dialog).toBeVisible();
    await page.goBack();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(DEMO);
    await expect(pageTitle(page)).toHaveText('Demo');

    // Closed by its own button: one Back leads to General, as before the dialog opened.
    await channelAction(page, 'Demo', 'Rename');
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await overlayEntryGone(page);
    await page.goBack();
    await expect(page).toHaveURL(GENERAL);
    await expect(pageTitle(page)).toHaveText('General');
  });

  test('Back with a question open closes it unanswered: it waits behind its chip, the lane stays', async ({
    page,
    iris,
  }) => {
    await pairAndOpen(page, iris);
    await openChannel(page, 'Demo');
    await sendMessage(page, '/confirm');
    const dialog = page.getByRole('dialog', { name: 'Archive old messages?' });
    await expect(dialog).toBeVisible();
    await page.goBack();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(DEMO);
    await page.getByRole('button', { name: /Pending question/ }).click();
    await dialog.getByRole('button', { name: 'No', exact: true }).click();
    await expect(dialog).toBeHidden();
    // Answered: no step of its own is left.
    await overlayEntryGone(page);
    await page.goBack();
    await expect(page).toHaveURL(GENERAL);
  });

  test('Back with "Delete this message?" open cancels it: the message stays', async ({ page, iris }) => {
    await pairAndOpen(page, iris);
    await openChannel(page, 'Demo');
    await sendMessage(page, 'keep me');
    const mineRow = page.getByRole('article', { name: /^You/ }).filter({ hasText: 'keep me' });
    await mineRow.hover();
    await mineRow.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this message?' });
    await expect(dialog).toBeVisible();
    await page.goBack();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(DEMO);
    await expect(mineRow).toBeVisible();
  });

  test('Back closes the picture viewer and leaves the lane where it was', async ({ page, iris }) => {
    await anotherDeviceSays(iris, 'web:demo', '/image');
    await pairAndOpen(page, iris);
    await openChannel(page, 'Demo');
    await page
      .getByRole('log', { name: 'Messages' })
      .getByRole('button', { name: /^Open picture/ })
      .click({ timeout: 30_000 });
    const viewer = page.getByRole('dialog', { name: /^Picture viewer/ });
    await expect(viewer).toBeVisible();
    await page.goBack();
    await expect(viewer).toHaveCount(0);
    await expect(page).toHaveURL(DEMO);
    await expect(pageTitle(page)).toHaveText('Demo');
    // Opened and closed with its button: Back is the lane's Back again.
    await page
      .getByRole('log', { name: 'Messages' })
      .getByRole('button', { name: /^Open picture/ })
      .click();
    await expect(viewer).toBeVisible();
    await viewer.getByRole('button', { name: 'Close' }).click();
    await expect(viewer).toHaveCount(0);
    await overlayEntryGone(page);
    await page.goBack();
    await expect(page).toHaveURL(GENERAL);
  });
});

test.describe('phone', () => {
  test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

  test('Back closes the drawer; a channel picked in it is one Back away from the page before', async ({
    page,
    iris,
  }) => {
    await pairAndOpen(page, iris);
    const drawer = page.getByRole('dialog', { name: 'Channels' });
    await page.getByRole('button', { name: /^Channels/ }).click();
    await expect(drawer).toBeVisible();
    await page.goBack();
    await expect(drawer).toBeHidden();
    await expect(page).toHaveURL(GENERAL);
    await expect(pageTitle(page)).toHaveText('General');

    await page.getByRole('button', { name: /^Channels/ }).click();
    await drawer.getByRole('link', { name: /^Demo/ }).click();
    await expect(pageTitle(page)).toHaveText('Demo');
    await expect(drawer).toBeHidden();
    await page.goBack();
    await expect(page).toHaveURL(GENERAL);
    await expect(pageTitle(page)).toHaveText('General');
    // The drawer's step went with it: Forward leads to Demo, not to an empty step.
    await page.goForward();
    await expect(page).toHaveURL(DEMO);
  });

  test('the top bar’s back arrow, tapped while a menu is open, is one step back, not a second copy of the page', async ({
    page,
    iris,
  }) => {
    await anotherDeviceSays(iris, 'web:default', '/thread Plan the trip');
    await pairAndOpen(page, iris);
    await page.getByRole('button', { name: /^Threads in General/ }).click();
    await page.getByRole('menu', { name: 'Threads in General' }).getByRole('menuitem').click();
    await expect(page).toHaveURL(/#\/c\/web%3Adefault\/t\/[^/]+$/);
    const thread = page.url();
    await page.getByRole('button', { name: 'Attach' }).click();
    await expect(page.getByRole('menu', { name: 'Attach' })).toBeVisible();
    await page.getByRole('button', { name: 'Back to General' }).click();
    await expect(page).toHaveURL(GENERAL);
    await expect(page.getByRole('menu', { name: 'Attach' })).toHaveCount(0);
    // The arrow was the thread's Back: Forward returns to the thread.
    await page.goForward();
    await expect(page).toHaveURL(thread);
  });
});
