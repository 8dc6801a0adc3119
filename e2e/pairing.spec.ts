// Issue 2's first screen (and 14, 16.1): pair by link, by typing or by scanning, land in the
// conversation, see auth errors and unreachable gateways in words.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { startHostile } from './hostile/hostile-gateway';
import { expect, expectLanded, pair, test } from './support';
import { pairingLink } from './support/server';

const DESKTOP = { width: 1440, height: 900 };

function pageTitle(page: Page) {
  return page.getByRole('banner').getByRole('heading', { level: 1 });
}

test('the pairing link pairs without typing and opens the default channel', async ({ page, iris }) => {
  await page.setViewportSize(DESKTOP);
  await pair(page, iris);
  await expect(page).toHaveURL(new RegExp(`#/c/${encodeURIComponent('web:default')}$`));
  await expect(pageTitle(page)).toHaveText('General');
  const nav = page.getByRole('navigation', { name: 'Channels' });
  await expect(nav.getByRole('link', { name: /^Demo(,|$)/ })).toBeVisible();
  // The token does not stay in the address bar.
  expect(page.url()).not.toContain(iris.token);
});

test('a pairing link that names a lane opens that lane', async ({ page, iris }) => {
  await page.goto(`${iris.pairingLink}&lane=${encodeURIComponent('web:demo')}`);
  await expectLanded(page);
  await expect(page).toHaveURL(new RegExp(`#/c/${encodeURIComponent('web:demo')}$`));
  await expect(pageTitle(page)).toHaveText('Demo');
  expect(page.url()).not.toContain(iris.token);
});

test('the pairing link opened in the tab that already shows the form pairs, after a failed try too', async ({
  page,
  iris,
}) => {
  // A new user opens the app's address first, tries something, then pastes the link the terminal printed.
  await page.goto(iris.baseURL + '/');
  await expect(page.getByRole('button', { name: 'Connect' })).toBeVisible();
  await page.getByLabel('Token').fill('not-the-token');
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'did not accept this token' })).toBeVisible();
  await page.goto(iris.pairingLink); // the same document: only the address's hash changes
  await expectLanded(page);
  await expect(pageTitle(page)).toHaveText('General');
  expect(page.url()).not.toContain(iris.token);
});

test('typing the gateway URL and token connects and opens the default channel', async ({ page, iris }) => {
  await page.goto(iris.baseURL + '/#/pair');
  await expect(page.getByLabel('Gateway URL')).toHaveValue(iris.gatewayUrl);
  // The card says where the token comes from, under the app's mark.
  await expect(page.getByText('The gateway prints its token and a pairing link when it starts')).toBeVisible();
  await expect(page.locator('.pair-card img.pair-mark')).toBeVisible();
  await page.getByLabel('Token').fill(iris.token);
  await page.getByRole('button', { name: 'Connect' }).click();
  await expectLanded(page);
  await expect(pageTitle(page)).toHaveText('General');
});

test('a gateway URL the server’s policy blocks says so in words within 5 s', async ({ page, iris }) => {
  await page.goto(iris.baseURL + '/#/pair');
  const elsewhere = 'ws://127.0.0.1:9/ws';
  await page.getByLabel('Gateway URL').fill(elsewhere);
  await page.getByLabel('Token').fill(iris.token);
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'This server connects only to its own gateway' }),
  ).toContainText(`start the server with --gateway ${elsewhere}`, { timeout: 5_000 });
});

test('an address that is no gateway URL is refused in words at once', async ({ page, iris }) => {
  await page.goto(iris.baseURL + '/#/pair');
  await page.getByLabel('Gateway URL').fill('ftp://127.0.0.1/ws');
  await page.getByLabel('Token').fill(iris.token);
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'The gateway URL must start with wss:// or ws://.' }),
  ).toBeVisible({ timeout: 5_000 });
});

test('a gateway that does not answer says so in words within 5 s', async ({ page, iris }) => {
  await page.goto(iris.baseURL + '/#/pair');
  await expect(page.getByLabel('Gateway URL')).toHaveValue(iris.gatewayUrl);
  // The form fetches the connection's code as soon as the person starts on it: once that code (and
  // what it imports) is in, nothing listens at the gateway any more.
  const codeAsked = page.waitForResponse(/\/assets\/session-[\w-]+\.js$/);
  await page.getByLabel('Token').fill(iris.token);
  const codeUrl = (await codeAsked).url();
  await page.evaluate((url) => import(url).then(() => undefined), codeUrl);
  await iris.server.close();
  await page.getByRole('button', { name: 'Connect' }).click();
  // The app says so after NO_ANSWER_MS (4 s) at the latest; the extra seconds are for a loaded CI machine.
  await expect(page.getByRole('status').filter({ hasText: `Nothing answers at ${iris.gatewayUrl}` })).toBeVisible({
    timeout: 8_000,
  });
});

test.describe('on a first visit', () => {
  // The service worker, once it has installed, would serve the chunk from its cache past the route.
  test.use({ serviceWorkers: 'block' });

  test('the page’s server gone before the connection’s code loaded: said in words, and Connect again works', async ({
    page,
    iris,
  }) => {
    await page.route(/\/assets\/session-[^/]*\.js$/, (route) => route.abort('connectionrefused'));
    await page.goto(iris.baseURL + '/#/pair');
    await page.getByLabel('Token').fill(iris.token);
    await page.getByRole('button', { name: 'Connect' }).click();
    const status = page.getByRole('status');
    await expect(status).toHaveText(
      `This page's server (${iris.baseURL}) stopped answering before Iris had loaded, so it cannot connect yet. Check that the server is running, then press Connect again.`,
    );
    await expect(status).not.toContainText('dynamically imported');
    await page.unroute(/\/assets\/session-[^/]*\.js$/);
    await page.getByRole('button', { name: 'Connect' }).click();
    await expectLanded(page);
  });
});

test('"Scan a pairing code" is there only where the browser can read QR codes', async ({ page, iris }) => {
  await page.goto(iris.baseURL + '/#/pair');
  await expect(page.getByRole('button', { name: 'Connect' })).toBeVisible();
  expect(await page.evaluate(() => 'BarcodeDetector' in globalThis)).toBe(false);
  await expect(page.getByRole('button', { name: 'Scan a pairing code' })).toHaveCount(0);
});

test('a scanned pairing code fills the form; connecting opens the lane it names', async ({ page, iris }) => {
  const link = `${iris.pairingLink}&lane=${encodeURIComponent('web:demo')}`;
  // A stand-in for the camera and for Chrome-on-Android's BarcodeDetector: the first frame "shows" the code.
  await page.addInitScript((raw) => {
    class FakeBarcodeDetector {
      static async getSupportedFormats() {
        return ['qr_code'];
      }
      async detect() {
        return [{ rawValue: raw, format: 'qr_code' }];
      }
    }
    Object.assign(globalThis, { BarcodeDetector: FakeBarcodeDetector });
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 16;
    const fakeCamera = async () => {
      canvas.getContext('2d')!.fillRect(0, 0, 16, 16);
      return canvas.captureStream(5);
    };
    Object.defineProperty(navigator, 'mediaDevices', { value: { getUserMedia: fakeCamera }, configurable: true });
  }, link);
  await page.goto(iris.baseURL + '/#/pair');
  await page.getByLabel('Gateway URL').fill('ws://typo.invalid/ws');
  await page.getByRole('button', { name: 'Scan a pairing code' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Pairing code read' })).toBeVisible();
  await expect(page.getByLabel('Gateway URL')).toHaveValue(iris.gatewayUrl);
  await expect(page.getByLabel('Token')).toHaveValue(iris.token);
  await page.getByRole('button', { name: 'Connect' }).click();
  await expectLanded(page);
  await expect(pageTitle(page)).toHaveText('Demo');
});

test('the pairing card has no serious accessibility problems, with an error showing, light and dark', async ({
  page,
  iris,
}) => {
  await page.goto(iris.baseURL + '/#/pair');
  await page.getByLabel('Gateway URL').fill('ws://127.0.0.1:9/ws');
  await page.getByLabel('Token').fill('x');
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'This server connects only' })).toBeVisible({
    timeout: 5_000,
  });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const results = await new AxeBuilder({ page }).include('.pair-card').analyze();
    const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(bad.map((v) => `${scheme} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }
});

test('a wrong token says so once, in one sentence with what to do, and does not retry', async ({ page, iris }) => {
  const sockets: string[] = [];
  page.on('websocket', (ws) => sockets.push(ws.url()));
  // The page's clock is ours, so "does not retry" is checked over a minute of its time, not a sleep.
  await page.clock.install();
  await page.goto(iris.baseURL + '/#/pair');
  await page.getByLabel('Token').fill('not-the-token');
  await page.getByRole('button', { name: 'Connect' }).click();
  // Ours, not the gateway's "The token was not accepted. Pair this device again." after it: said once.
  await expect(page.getByRole('status')).toHaveText(
    'The gateway did not accept this token: copy it again from where the gateway printed it, and connect.',
  );
  await page.clock.runFor(60_000);
  expect(sockets.length).toBe(1);
  expect(iris.server.gateway!.connectionCount()).toBe(0);
});

test('a gateway that refuses the token by closing at hello (1008, no error frame) is a wrong token too, not "nothing answers"', async ({
  page,
}) => {
  const hostile = await startHostile({ refuse: 'close' });
  try {
    const sockets: string[] = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));
    await page.clock.install();
    await page.goto(pairingLink(hostile.origin, 'not-the-token'));
    await expect(page.getByRole('status')).toHaveText(
      'The gateway did not accept this token: copy it again from where the gateway printed it, and connect.',
    );
    await page.clock.runFor(60_000);
    expect(sockets.length).toBe(1);
  } finally {
    await hostile.close();
  }
});

test('a gateway with no channel at all: pairing lands on a page that says so, not on "Connected" for ever', async ({
  page,
}) => {
  const hostile = await startHostile({ noChannels: true });
  try {
    await page.setViewportSize({ width: 412, height: 915 });
    await page.goto(pairingLink(hostile.origin, hostile.token));
    await expect(
      page.getByText('This gateway has no channels yet. Start one with “New channel” in the channel list.'),
    ).toBeVisible();
    await expect(page).not.toHaveURL(/#\/pair/);
    // And the channel list, with New channel, is one tap away.
    await page
      .getByRole('button', { name: /channels/i })
      .first()
      .click();
    await expect(page.getByRole('button', { name: 'New channel' })).toBeVisible();
  } finally {
    await hostile.close();
  }
});

test('`npm start` prints a pairing link that opens the demo in Chromium', async ({ page }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'iris-cli-'));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'server/main.ts', '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  try {
    const link = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error('no pairing link printed:\n' + out)), 30_000);
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const m = out.match(/(https?:\/\/\S+#\/pair\?\S+)/);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
    });
    // Opened exactly as printed: the link names localhost, which the server (bound to 127.0.0.1) answers.
    await page.goto(link);
    await expectLanded(page);
    await expect(pageTitle(page)).toHaveText('General');
  } finally {
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
});
