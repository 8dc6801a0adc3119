// Settings: the gateway (state, forget), this device's name, the theme, the pairing QR code and
// the version — each checked the way a person sees it, and across a reload where it must persist.
import type { Locator, Page } from '@playwright/test';
import { qrMatrix } from '../src/lib/qrcode';
import { qrPath } from '../src/lib/qrPath';
import {
  expect,
  test,
  DESKTOP,
  PHONE,
  channelAction,
  channelsNav,
  messageBox,
  mine,
  pageTitle,
  pairAndOpen,
  sendMessage,
} from './support';

test.use({ viewport: DESKTOP });

async function openSettings(page: Page) {
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(pageTitle(page)).toHaveText('Settings');
}

const bodyBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const LIGHT_BG = 'rgb(246, 247, 249)';
const DARK_BG = 'rgb(21, 23, 28)';

test('the gateway section says where and how the app is connected, and shows the version', async ({ page, iris }) => {
  await pairAndOpen(page, iris);
  await openSettings(page);
  const gateway = page.getByRole('region', { name: 'Gateway' });
  await expect(gateway).toContainText(iris.gatewayUrl);
  await expect(gateway).toContainText('Connected');
  // Which agent answers: the demo, with its model (a Hermes shows its version and model: e2e/hermes).
  const agentRow = gateway.locator('.settings-facts div').filter({ has: page.getByText('Agent', { exact: true }) });
  await expect(agentRow.locator('dd')).toHaveText('Iris demo agent · model iris-demo-1');
  await expect(page.getByRole('region', { name: 'About' })).toContainText(/Version \d+\.\d+\.\d+/);

  // Re-pair opens pairing with this gateway's address filled in.
  await gateway.getByRole('button', { name: 'Re-pair' }).click();
  await expect(page.getByLabel('Gateway URL')).toHaveValue(iris.gatewayUrl);
  await expect(page.getByLabel('Token')).toHaveValue('');
  await page.goBack();
  await expect(pageTitle(page)).toHaveText('Settings');

  await iris.server.close();
  await expect(gateway).not.toContainText('Connected', { timeout: 15_000 });
});

test.describe('on a first visit', () => {
  // The service worker, once it has installed, would serve the chunk from its cache past the route.
  test.use({ serviceWorkers: 'block' });

  test('a page whose code cannot be fetched says so in its place, and opens with Try again once it can', async ({
    page,
    iris,
  }) => {
    // Cut off before the page was idle on a first visit: the worker does not serve it yet.
    const settingsCode = /\/SettingsPage-[^/]*\.js$/;
    await page.route(settingsCode, (route) => route.abort('internetdisconnected'));
    await pairAndOpen(page, iris);
    await page.getByRole('button', { name: 'Settings' }).click();
    const unavailable = page.getByRole('alert').filter({ hasText: 'not on this device yet' });
    await expect(unavailable).toBeVisible();
    await expect(page.getByRole('region', { name: 'Gateway' })).toHaveCount(0);

    await page.unroute(settingsCode);
    await unavailable.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByRole('region', { name: 'Gateway' })).toContainText(iris.gatewayUrl);
    await expect(unavailable).toHaveCount(0);
  });
});

test('theme: light, dark or the system, applied at once and kept after a reload', async ({ page, iris }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await pairAndOpen(page, iris);
  await openSettings(page);
  const theme = page.getByRole('group', { name: 'Theme' });
  await expect(theme.getByRole('radio', { name: /System/ })).toBeChecked();
  expect(await bodyBackground(page)).toBe(LIGHT_BG);

  await theme.getByRole('radio', { name: /Dark/ }).check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect.poll(() => bodyBackground(page)).toBe(DARK_BG);

  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect.poll(() => bodyBackground(page)).toBe(DARK_BG);
  await expect(page.getByRole('group', { name: 'Theme' }).getByRole('radio', { name: /Dark/ })).toBeChecked();

  // System follows the device's preference, whichever it is.
  await page
    .getByRole('group', { name: 'Theme' })
    .getByRole('radio', { name: /System/ })
    .check();
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', /.*/);
  await expect.poll(() => bodyBackground(page)).toBe(LIGHT_BG);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(() => bodyBackground(page)).toBe(DARK_BG);

  // Light overrides a dark system.
  await page.getByRole('group', { name: 'Theme' }).getByRole('radio', { name: /Light/ }).check();
  await expect.poll(() => bodyBackground(page)).toBe(LIGHT_BG);
  await page.reload();
  await expect.poll(() => bodyBackground(page)).toBe(LIGHT_BG);
});

test("this device's name is kept, and the gateway learns it", async ({ page, iris }) => {
  await pairAndOpen(page, iris);
  await openSettings(page);
  const name = page.getByLabel('Device name');
  await expect(name).not.toHaveValue('');
  await name.fill('Kitchen tablet');
  await page.getByRole('region', { name: 'This device' }).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('region', { name: 'This device' })).toContainText('Saved.');
  await expect.poll(() => iris.server.gateway!.store.devices.list().map((d) => d.name)).toContain('Kitchen tablet');

  await page.reload();
  await expect(page.getByLabel('Device name')).toHaveValue('Kitchen tablet');
});

test('the pairing QR code appears only when asked, encodes the pairing link, and the token goes nowhere', async ({
  page,
  iris,
}) => {
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url() + ' ' + (request.postData() ?? '')));
  await pairAndOpen(page, iris);
  await openSettings(page);
  const section = page.getByRole('region', { name: 'Pair another device' });
  const qr = section.getByRole('img', { name: 'QR code of the pairing link' });
  await expect(qr).toHaveCount(0);

  await section.getByRole('button', { name: 'Show pairing QR code' }).click();
  await expect(qr).toBeVisible();
  await expect(qr.locator('path')).toHaveAttribute('d', qrPath(qrMatrix(iris.pairingLink), 4));
  await expect(section).toContainText('Anyone who scans this code can use your gateway');

  await section.getByRole('button', { name: 'Hide QR code' }).click();
  await expect(qr).toHaveCount(0);
  expect(requests.filter((r) => r.includes(iris.token) || r.includes(encodeURIComponent(iris.token)))).toEqual([]);
});

test('forgetting the gateway, after a confirmation, returns to pairing with nothing left', async ({ page, iris }) => {
  await pairAndOpen(page, iris);
  await openSettings(page);
  await page.getByRole('button', { name: 'Forget this gateway' }).click();
  const confirm = page.getByRole('dialog', { name: 'Forget this gateway?' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(channelsNav(page).getByRole('link', { name: /^General/ })).toBeVisible();

  await page.getByRole('button', { name: 'Forget this gateway' }).click();
  await confirm.getByRole('button', { name: 'Forget' }).click();
  await expect(page).toHaveURL(/#\/pair$/);
  await expect(page.getByLabel('Token')).toHaveValue('');

  // Home goes to pairing, and the app shows no channels any more.
  await page.goto(iris.baseURL + '/#/');
  await expect(page).toHaveURL(/#\/pair$/);
  await page.goto(iris.baseURL + '/#/settings');
  await expect(channelsNav(page)).toContainText('No channels yet');
  await expect(page.getByRole('region', { name: 'Gateway' })).toContainText('not paired');
});

test('in a forced-colours theme (Windows contrast) the notifications switch still shows its knob and its state; the open lane, my bubbles and the phone’s channel drawer keep an outline; filled buttons and chosen options keep the theme’s highlight', async ({
  page,
  iris,
}) => {
  await page.setViewportSize(DESKTOP);
  await page.emulateMedia({ forcedColors: 'active' });
  await pairAndOpen(page, iris);
  // The open lane in the channel list, and a bubble of mine: outlined, as their backgrounds are dropped.
  const current = channelsNav(page).locator('.channel-row.current');
  expect(await current.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid');
  // The filled button (Send) is drawn in the theme's highlight colour, not dropped to the page's canvas.
  const fill = (el: Locator) => el.evaluate((node) => getComputedStyle(node).backgroundColor);
  const highlight = await page.evaluate(() => {
    const probe = document.createElement('div');
    probe.style.color = 'Highlight';
    document.body.append(probe);
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
  });
  await messageBox(page).fill('Outlined');
  await expect.poll(() => fill(page.getByRole('button', { name: 'Send' }))).toBe(highlight);
  await sendMessage(page, 'Outlined');
  // Polled: the pending bubble is swapped for the gateway's echo, and a detached element's style reads empty.
  const bubble = mine(page, 'Outlined').locator('.bubble');
  await expect.poll(() => bubble.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid');
  // On a phone, the channel drawer keeps an edge against the page under it (its shadow is dropped).
  await page.setViewportSize(PHONE);
  await page.getByRole('button', { name: 'Channels' }).click();
  const drawer = page.getByRole('dialog', { name: 'Channels' });
  await expect(drawer).toBeVisible();
  expect(await drawer.evaluate((el) => getComputedStyle(el).borderInlineEndStyle)).toBe('solid');
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await page.setViewportSize(DESKTOP);

  // A chosen colour, and the chosen search scope, in the highlight colour; the others not.
  await channelAction(page, 'General', 'Icon and colour');
  const look = page.getByRole('dialog', { name: 'Icon and colour of General' });
  await look.getByRole('radio', { name: 'Blue' }).check();
  const swatch = (name: string) => look.locator('.colour-swatch', { has: page.getByRole('radio', { name }) });
  await expect.poll(() => fill(swatch('Blue'))).toBe(highlight);
  expect(await fill(swatch('Green'))).not.toBe(highlight);
  await page.keyboard.press('Escape');
  await page.getByRole('banner').getByRole('button', { name: 'Search' }).click();
  const scope = (name: string) => page.locator('.search-scope-option', { has: page.getByRole('radio', { name }) });
  await expect(page.getByRole('radio', { name: 'All chats' })).toBeChecked();
  await expect.poll(() => fill(scope('All chats'))).toBe(highlight);
  expect(await fill(scope('This chat'))).not.toBe(highlight);

  await page.getByRole('button', { name: 'Settings' }).click();
  const toggle = page.getByRole('switch');
  const knob = () =>
    toggle.evaluate((el) => {
      const track = getComputedStyle(el);
      const after = getComputedStyle(el, '::after');
      const drawn = parseFloat(after.borderTopWidth) > 0 ? after.borderTopColor : after.backgroundColor;
      return { drawn, track: track.backgroundColor };
    });
  const off = await knob();
  expect(off.drawn).not.toBe(off.track);
  expect(off.track).not.toBe(highlight);
  // On (drawn as it is once push is set up; push.spec turns it on for real): the track fills with the highlight.
  await toggle.evaluate((el) => ((el as HTMLInputElement).checked = true));
  await expect.poll(async () => (await knob()).track).toBe(highlight);
  const on = await knob();
  expect(on.drawn).not.toBe(on.track);
  await page.screenshot({ path: '/tmp/look/forced-colours-settings.png' });
});
