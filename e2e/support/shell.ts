// The shell around a lane: find channels the way a person would (by name in the "Channels"
// navigation), the page title, and other devices on the same gateway.
import type { Browser, Locator, Page } from '@playwright/test';
import { TestClient } from '../../server/gateway/testclient';
import { pairAndOpen } from './app';
import { expect, type IrisServer } from './server';

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function channelsNav(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Channels' });
}

/** A channel link's accessible name starts with the channel name (then ", favorite", ", 2 unread"…). */
function channelName(name: string): RegExp {
  return new RegExp(`^${escapeRegExp(name)}(,|$)`);
}

export function channelLink(page: Page, name: string): Locator {
  return channelsNav(page).getByRole('link', { name: channelName(name) });
}

/** The whole row of a channel (icon, marks, preview, unread count, actions). */
export function channelRow(page: Page, name: string): Locator {
  return channelsNav(page)
    .locator('.channel-row')
    .filter({ has: page.getByRole('link', { name: channelName(name) }) });
}

/** The names of the top-level channels, in the order shown. */
export async function topLevelNames(page: Page): Promise<string[]> {
  return channelsNav(page).locator('.channel-list > li > .channel-row .channel-name').allTextContents();
}

/** Picks an item in a channel's actions menu. */
export async function channelAction(page: Page, channel: string, item: string): Promise<void> {
  await channelsNav(page)
    .getByRole('button', { name: `Actions for ${channel}` })
    .click();
  await page
    .getByRole('menu', { name: `Actions for ${channel}` })
    .getByRole('menuitem', { name: item })
    .click();
}

/** The toasts under the top bar (a list named "Notifications"). */
export function toastList(page: Page): Locator {
  return page.getByRole('list', { name: 'Notifications' });
}

/** The toast that says `text`. */
export function toast(page: Page, text: string): Locator {
  return toastList(page).getByRole('listitem').filter({ hasText: text });
}

/** The top bar's title (the page heading). */
export function pageTitle(page: Page): Locator {
  return page.getByRole('banner').getByRole('heading', { level: 1 });
}

/** Opens a channel from the sidebar (a desktop's), once its page shows: the page before is the one it left. */
export async function openChannel(page: Page, name: string): Promise<void> {
  await channelLink(page, name).click();
  await expect(pageTitle(page)).toHaveText(name);
}

/** Another device: a separate browser context (its own IndexedDB and device id), paired with the same link. */
export async function secondDevice(browser: Browser, iris: IrisServer, viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await pairAndOpen(page, iris);
  return page;
}

/**
 * A headless device (a plain WebSocket client paired with the same token) says something in a
 * channel and waits until the demo agent has answered there.
 */
export async function anotherDeviceSays(iris: IrisServer, chatId: string, text: string): Promise<void> {
  const device = await TestClient.paired(iris.gatewayUrl, { token: iris.token, device_name: 'e2e phone' });
  try {
    await device.chat(text, { chat_id: chatId });
  } finally {
    await device.close();
  }
}
