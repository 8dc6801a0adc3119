// A phone that opens `npm start`'s LAN link (plain http at the machine's address) is not in a secure
// context: the browser gives it no service worker, notifications or install. Settings must say that the
// address is why, and what to do, not blame the browser. Here a made-up host name resolved to loopback
// stands in for the LAN address (Chromium counts only localhost and loopback addresses as secure).
import { rmSync } from 'node:fs';
import { CHROMIUM_ARGS, chromiumExecutable } from './browser';
import {
  expect,
  expectLanded,
  demoGateway,
  hermes,
  LANE,
  launchServer,
  messageBox,
  messages,
  test,
  type IrisServer,
} from './support';
import { pairingLink } from './support/server';

const HOST = 'iris-phone.test';

test.use({
  viewport: { width: 412, height: 915 },
  launchOptions: {
    executablePath: chromiumExecutable(),
    args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${HOST} 127.0.0.1`],
  },
});

let iris: IrisServer | undefined;
test.afterEach(async () => {
  await iris?.server.close();
  if (iris) rmSync(iris.dataDir, { recursive: true, force: true });
  iris = undefined;
});

test('opened at a plain-HTTP address: pairing works, and Settings say notifications, installing and offline need HTTPS', async ({
  page,
}) => {
  iris = await launchServer();
  const origin = `http://${HOST}:${new URL(iris.baseURL).port}`;
  await page.goto(pairingLink(origin, iris.token));
  await expectLanded(page);
  expect(await page.evaluate(() => isSecureContext)).toBe(false);
  // Ids and an upload's hash without the secure-context APIs (crypto.randomUUID, crypto.subtle).
  await messageBox(page).fill('hello over plain http');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(hermes(page, 'Echo: hello over plain http')).toBeVisible();
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Attach' }).click();
  await (await chooser).setFiles([{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('my notes') }]);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(messages(page).getByText('Received: notes.txt')).toBeVisible();
  expect(
    demoGateway(iris)
      .store.messages(LANE)
      .filter((m) => m.role === 'user')
      .map((m) => m.text),
  ).toEqual(['hello over plain http', '']);

  await page.goto(`${origin}/#/settings`);
  await expect(page.getByTestId('notification-status')).toHaveText('Needs HTTPS');
  await expect(page.getByTestId('needs-https')).toContainText(`This page is open at ${origin}, a plain-HTTP address`);
  await expect(page.getByRole('switch', { name: 'Notifications' })).toBeDisabled();
  await expect(page.getByText('Installing and reading offline need an https:// address too.')).toBeVisible();
});

test('at a secure address (localhost) none of that is said', async ({ page }) => {
  iris = await launchServer();
  await page.goto(iris.pairingLink);
  await expectLanded(page);
  await page.goto(`${iris.baseURL}/#/settings`);
  await expect(page.getByTestId('notification-status')).not.toHaveText('Needs HTTPS');
  await expect(page.getByTestId('needs-https')).toHaveCount(0);
  await expect(page.getByText('Installing and reading offline need an https:// address too.')).toHaveCount(0);
});
