import { expect, launchServer, messageBox, messages, test } from './support';

const PY = {
  errorsWithoutIds: true,
  answersWithoutIds: true,
  noAgentFrames: true,
  noSync: true,
  noCatalog: true,
  helloAckEmptyChannels: true,
  historyWithoutOldest: true,
  noClientId: true,
  noTs: true,
  mediaOfferWithoutMessageId: true,
} as const;

for (const [name, viewport, scheme] of [
  ['phone-light', { width: 412, height: 915 }, 'light'],
  ['desktop-dark', { width: 1280, height: 800 }, 'dark'],
] as const) {
  test(`walk ${name}`, async ({ page }) => {
    test.setTimeout(120_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.setViewportSize(viewport);
    await page.emulateMedia({ colorScheme: scheme });
    const iris = await launchServer({ quirks: PY as never, streamDelayMs: 60 });
    await page.goto(iris.pairingLink);
    await expect(messageBox(page)).toBeVisible();
    const sendIt = async (t: string) => {
      await messageBox(page).fill(t);
      await page.getByRole('button', { name: 'Send' }).click();
    };
    await sendIt('hello from python');
    await expect(messages(page).getByText('Echo: hello from python')).toBeVisible({ timeout: 15_000 });
    await sendIt('/image');
    await page.waitForTimeout(3000);
    await page.screenshot({ path: `/tmp/walk-${name}-1.png` });
    await sendIt('/long');
    await expect(messages(page).getByText('Line 3 of a long answer')).toBeVisible();
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.waitForTimeout(2000);
    await page.screenshot({ path: `/tmp/walk-${name}-2.png` });
    await page.reload();
    await expect(messageBox(page)).toBeVisible();
    await page.waitForTimeout(3000);
    await page.screenshot({ path: `/tmp/walk-${name}-3.png` });
    await messageBox(page).fill('/');
    await page.waitForTimeout(1000);
    await page.screenshot({ path: `/tmp/walk-${name}-4.png` });
    console.log('ERRORS', errors);
    await iris.server.close();
  });
}
