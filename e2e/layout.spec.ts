// Layout and themes: the phone drawer (modal, focus kept inside, Escape closes), the desktop two
// panes, pairing without chrome, and axe-core on the shell, the drawer, the channel dialogs and
// settings, in light and dark, on a phone and a desktop.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { horizontalOverflow } from './audit';
import {
  expect,
  test,
  DESKTOP,
  PHONE,
  channelLink,
  channelsNav,
  hermes,
  messageBox,
  pageTitle,
  pairAndOpen,
  sendMessage,
} from './support';

async function expectNoSeriousViolations(page: Page, where: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = serious.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(summary, `axe on ${where}`).toEqual([]);
}

test.describe('on a phone', () => {
  test.use({ viewport: PHONE });

  test('the channel drawer opens from the top bar, keeps focus inside, and Escape closes it', async ({
    page,
    iris,
  }) => {
    await pairAndOpen(page, iris);
    await expect(pageTitle(page)).toHaveText('General');
    const menu = page.getByRole('button', { name: 'Channels' });
    // Closed, the channel list is not on screen (nor in the accessibility tree).
    await expect(channelsNav(page)).toHaveCount(0);

    await menu.click();
    const drawer = page.getByRole('dialog', { name: 'Channels' });
    await expect(drawer).toBeVisible();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await expect(drawer.getByRole('navigation', { name: 'Channels' })).toBeVisible();
    const focusInside = () => page.evaluate(() => !!document.activeElement?.closest('dialog[open]'));
    expect(await focusInside()).toBe(true);
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      expect(await focusInside(), `focus after ${i + 1} Tab presses`).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect(menu).toBeFocused();

    // Picking a channel closes the drawer and opens the lane.
    await menu.click();
    await channelLink(page, 'Demo').click();
    await expect(drawer).toBeHidden();
    await expect(pageTitle(page)).toHaveText('Demo');
  });

  test('a channel action from the drawer: the menu works by keyboard and its dialog opens over the drawer', async ({
    page,
    iris,
  }) => {
    await pairAndOpen(page, iris);
    await page.getByRole('button', { name: 'Channels' }).click();
    const actions = channelsNav(page).getByRole('button', { name: 'Actions for Demo' });
    await actions.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: 'Actions for Demo' });
    await expect(menu.getByRole('menuitem').first()).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(menu.getByRole('menuitem', { name: 'Rename' })).toBeFocused();
    // Escape closes only the menu, not the drawer, and focus goes back to its button.
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(actions).toBeFocused();
    await expect(page.getByRole('dialog', { name: 'Channels' })).toBeVisible();

    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const rename = page.getByRole('dialog', { name: 'Rename Demo' });
    await expect(rename.getByLabel('Name')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(rename).toBeHidden();
    await expect(page.getByRole('dialog', { name: 'Channels' })).toBeVisible();
  });

  test('the on-screen keyboard makes the app shorter, not covered: the top bar, the newest reply and the message box stay in view', async ({
    page,
    iris,
  }) => {
    await pairAndOpen(page, iris);
    await sendMessage(page, 'Hello over the keyboard');
    const reply = hermes(page, 'Echo: Hello over the keyboard');
    await expect(reply).toBeVisible();
    // Android's Chrome lays a page out under the keyboard unless the page asks to be resized: the top bar
    // then scrolls away and a swipe in the conversation pans the page instead (a native app resizes).
    const viewport = await page.locator('meta[name="viewport"]').getAttribute('content');
    expect(viewport).toContain('interactive-widget=resizes-content');
    // Resized as that keyboard does (a 336 px keyboard), with the message box focused.
    await messageBox(page).focus();
    await page.setViewportSize({ width: PHONE.width, height: PHONE.height - 336 });
    await expect(pageTitle(page)).toBeInViewport();
    await expect(messageBox(page)).toBeInViewport();
    await expect(messageBox(page)).toBeFocused();
    // The conversation stays at its newest: the reply's end sits just above the message box.
    await expect(async () => {
      const replyBox = (await reply.boundingBox())!;
      const boxTop = (await messageBox(page).boundingBox())!.y;
      expect(replyBox.y + replyBox.height).toBeLessThanOrEqual(boxTop);
      expect(replyBox.y + replyBox.height).toBeGreaterThan(boxTop - 120);
    }).toPass();
    await page.screenshot({ path: '/tmp/look/keyboard-open-phone.png' });
  });
});

test.describe('on a desktop', () => {
  test.use({ viewport: DESKTOP });

  test('the channel list is always beside the conversation; no drawer button', async ({ page, iris }) => {
    await pairAndOpen(page, iris);
    await expect(channelsNav(page)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Channels' })).toHaveCount(0);
    await expect(page.getByRole('complementary').getByRole('navigation', { name: 'Channels' })).toBeVisible();
    await expect(channelLink(page, 'General')).toHaveAttribute('aria-current', 'page');
    await channelLink(page, 'Demo').click();
    await expect(channelLink(page, 'Demo')).toHaveAttribute('aria-current', 'page');
    await expect(channelsNav(page)).toBeVisible();
    await expect(page).toHaveTitle('Demo · Iris');
  });

  test('the pairing screen has no app chrome', async ({ page, iris }) => {
    await page.goto(iris.baseURL + '/#/pair');
    await expect(page.getByLabel('Token')).toBeVisible();
    await expect(channelsNav(page)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Settings' })).toHaveCount(0);
    await expect(page.getByRole('banner')).toHaveCount(0);
  });
});

for (const [device, viewport] of [
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`axe: shell, channels, channel dialogs and settings have no serious violations (${device}, ${scheme})`, async ({
      page,
      iris,
    }) => {
      test.setTimeout(180_000); // nine full-page axe runs
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: scheme });
      await pairAndOpen(page, iris);
      await expect(pageTitle(page)).toHaveText('General');
      const openChannels = async () => {
        if (device === 'phone') await page.getByRole('button', { name: 'Channels' }).click();
        await expect(channelsNav(page)).toBeVisible();
      };

      // Give the list some state to check: a favorite with an icon and colour, a thread.
      await openChannels();
      await channelsNav(page).getByRole('button', { name: 'Actions for Demo' }).click();
      await page.getByRole('menuitem', { name: 'Add to favorites' }).click();
      await expect(channelLink(page, 'Demo')).toHaveAccessibleName(/favorite/);
      await expectNoSeriousViolations(page, `${device} ${scheme} channels`);

      await channelsNav(page).getByRole('button', { name: 'Actions for Demo' }).click();
      await expect(page.getByRole('menu')).toBeVisible();
      await expectNoSeriousViolations(page, `${device} ${scheme} actions menu`);
      await page.getByRole('menuitem', { name: 'Icon and colour' }).click();
      const look = page.getByRole('dialog', { name: 'Icon and colour of Demo' });
      await expect(look).toBeVisible();
      await expectNoSeriousViolations(page, `${device} ${scheme} icon dialog`);
      await look.getByRole('button', { name: 'Use 💡' }).click();
      await look.getByRole('radio', { name: 'Amber' }).check();
      await look.getByRole('button', { name: 'Save' }).click();
      await expect(look).toBeHidden();
      await expectNoSeriousViolations(page, `${device} ${scheme} channels with colour`);

      await channelsNav(page).getByRole('button', { name: 'New channel' }).click();
      await expect(page.getByRole('dialog', { name: 'New channel' })).toBeVisible();
      await expectNoSeriousViolations(page, `${device} ${scheme} new channel dialog`);
      await page.keyboard.press('Escape');
      if (device === 'phone') await page.keyboard.press('Escape');

      await page.getByRole('button', { name: 'Settings' }).click();
      await expect(pageTitle(page)).toHaveText('Settings');
      await page.getByRole('button', { name: 'Show pairing QR code' }).click();
      await expectNoSeriousViolations(page, `${device} ${scheme} settings`);
      await page.getByRole('button', { name: 'Forget this gateway' }).click();
      await expectNoSeriousViolations(page, `${device} ${scheme} forget dialog`);
      await page.keyboard.press('Escape');

      // The banner in both tones.
      await iris.server.close();
      await expect(page.locator('.connection-banner')).toBeVisible({ timeout: 15_000 });
      await expectNoSeriousViolations(page, `${device} ${scheme} offline banner`);
    });
  }
}

/** Opens the demo's approval question: a dialog with a code block, a description and four answers. */
async function approvalDialog(page: Page) {
  await sendMessage(page, '/approve make deploy --prod');
  const dialog = page.getByRole('dialog', { name: 'Approve this command?' });
  await expect(dialog).toBeVisible();
  await expect.poll(() => dialog.evaluate((el) => el.getAnimations().length)).toBe(0);
  return dialog;
}

for (const [viewport, expected] of [
  [{ width: 1440, height: 900 }, 'a roomy dialog in the middle'],
  [{ width: 360, height: 740 }, 'a sheet as wide as the screen'],
] as const) {
  test.describe(`a dialog at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test(`is ${expected}, its words clear of its edges`, async ({ page, iris }) => {
      await pairAndOpen(page, iris);
      const dialog = await approvalDialog(page);
      const look = await dialog.evaluate((el) => {
        const css = getComputedStyle(el);
        const box = el.getBoundingClientRect();
        return { width: box.width, left: box.left, right: box.right, padding: parseFloat(css.paddingLeft) };
      });
      if (viewport.width >= 600) {
        expect(look.width, 'wide enough for a sentence per line').toBeGreaterThanOrEqual(500);
        expect(look.padding, 'room around the words').toBeGreaterThanOrEqual(28);
      } else {
        expect(look.left).toBeGreaterThanOrEqual(0);
        expect(look.right).toBeLessThanOrEqual(viewport.width);
        expect(look.width).toBeGreaterThanOrEqual(viewport.width - 1);
        expect(look.padding).toBeGreaterThanOrEqual(16);
      }
      expect(await horizontalOverflow(page)).toEqual([]);
      for (const name of ['Once', 'This session', 'Always', 'Deny'])
        await expect(dialog.getByRole('button', { name })).toBeInViewport({ ratio: 1 });
    });
  });
}
