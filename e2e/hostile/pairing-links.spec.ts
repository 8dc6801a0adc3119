// Pairing links are capabilities: one replaces the gateway and token. Once paired, a link (typed, in a
// message, in a notification) must never re-pair silently: the app asks and shows the new host; links
// inside messages are not links at all. And a copy of the app served without this server's headers
// still refuses inline script (the CSP <meta> in index.html).
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { anotherDeviceSays, pairAndOpen, expect, expectLanded, pair, test } from '../support';

/** The gateway URL and token the app has stored (its own IndexedDB, read raw). */
function storedPairing(page: Page): Promise<{ gatewayUrl?: string; token?: string }> {
  return page.evaluate(
    () =>
      new Promise((done, fail) => {
        const open = indexedDB.open('iris');
        open.onerror = () => fail(open.error);
        open.onsuccess = () => {
          const store = open.result.transaction('settings').objectStore('settings');
          const url = store.get('gatewayUrl');
          const token = store.get('token');
          token.onsuccess = () => {
            done({ gatewayUrl: url.result?.value, token: token.result?.value });
            open.result.close();
          };
        };
      }),
  );
}

/** Opens `link` as a fresh page load, as a click from elsewhere or a pasted address does. */
async function openLink(page: Page, link: string): Promise<void> {
  await page.goto('about:blank');
  await page.goto(link);
}

const EVIL_TOKEN = 'attacker-token-1234567890';
const evilLink = (origin: string, gateway = 'wss://evil.example:8443/ws', token = EVIL_TOKEN) =>
  `${origin}/#/pair?url=${encodeURIComponent(gateway)}&token=${encodeURIComponent(token)}`;

test('already paired, a pairing link for another gateway or token asks first and names the new host', async ({
  page,
  iris,
}) => {
  await pair(page, iris);
  const paired = await storedPairing(page);
  expect(paired).toEqual({ gatewayUrl: iris.gatewayUrl, token: iris.token });
  const host = new URL(iris.baseURL).host;
  const dialog = page.getByRole('dialog', { name: 'Pair with a different gateway?' });

  await openLink(page, evilLink(iris.baseURL));
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('This link pairs Iris with evil.example:8443.');
  await expect(dialog).toContainText(`It replaces the pairing with ${host}.`);
  expect(page.url(), 'the token left the address bar').not.toContain(EVIL_TOKEN);
  expect(await storedPairing(page)).toEqual(paired);
  await dialog.getByRole('button', { name: 'Keep current pairing' }).click();
  await expect(dialog).toBeHidden();
  expect(await storedPairing(page)).toEqual(paired);
  await expect
    .poll(() => iris.server.gateway!.connectionCount(), { message: 'still connected to its own gateway' })
    .toBeGreaterThan(0);

  // The same gateway with another token asks too; confirming pairs with it (here a token it refuses).
  await openLink(page, evilLink(iris.baseURL, iris.gatewayUrl, 'another-token-1234567890'));
  const again = page.getByRole('dialog', { name: 'Pair again with a new token?' });
  await expect(again).toContainText(`This link pairs Iris with ${host} again, with a different token.`);
  await expect(again).toContainText('It replaces the token this device uses now.');
  await expect(again).not.toContainText('It replaces the pairing with');
  await again.getByRole('button', { name: `Pair with ${host}` }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The gateway did not accept this token' })).toBeVisible();
  expect((await storedPairing(page)).token).toBe('another-token-1234567890');

  // The right link again: asked (it changes the token back), then connected; the same link once more pairs without a question.
  await openLink(page, iris.pairingLink);
  await again.getByRole('button', { name: `Pair with ${host}` }).click();
  await expectLanded(page);
  await openLink(page, iris.pairingLink);
  await expectLanded(page);
  await expect(dialog).toBeHidden();
  await expect(again).toBeHidden();
  expect(await storedPairing(page)).toEqual(paired);
});

test.describe('the question’s code not loaded', () => {
  // The service worker would serve the dialog's code from its cache: blocked, the page asks the server.
  test.use({ serviceWorkers: 'block' });

  test('a pairing link for another gateway replaces nothing, says why and asks again on Try again', async ({
    page,
    iris,
  }) => {
    await pair(page, iris);
    const paired = await storedPairing(page);
    let refuse = true;
    await page.route(/\/assets\/ReplacePairingDialog-[\w-]+\.js$/, (route) =>
      refuse ? route.abort('internetdisconnected') : route.continue(),
    );
    await openLink(page, evilLink(iris.baseURL));
    const problem = page.getByRole('alert').filter({ hasText: 'its server did not send it' });
    await expect(problem).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    // Nothing under the notice pairs without the question: no form holding the link's gateway and token.
    await expect(page.getByRole('button', { name: 'Connect' })).toHaveCount(0);
    await expect(page.getByRole('textbox', { name: 'Gateway URL' })).toHaveCount(0);
    expect(await storedPairing(page)).toEqual(paired);

    refuse = false;
    await problem.getByRole('button', { name: 'Try again' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pair with a different gateway?' });
    await expect(dialog).toContainText('This link pairs Iris with evil.example:8443.');
    await dialog.getByRole('button', { name: 'Keep current pairing' }).click();
    await expect(dialog).toBeHidden();
    expect(await storedPairing(page)).toEqual(paired);
  });

  test('and the way back keeps the pairing and opens the conversations', async ({ page, iris }) => {
    await pairAndOpen(page, iris);
    const paired = await storedPairing(page);
    await page.route(/\/assets\/ReplacePairingDialog-[\w-]+\.js$/, (route) => route.abort('internetdisconnected'));
    await openLink(page, evilLink(iris.baseURL));
    await expect(page.getByRole('alert').filter({ hasText: 'its server did not send it' })).toBeVisible();
    await page.getByRole('button', { name: 'Back to my conversations' }).click();
    await expectLanded(page);
    expect(await storedPairing(page)).toEqual(paired);
  });
});

test('a pairing link inside a message is only text: clicking it never pairs or asks', async ({ page, iris }) => {
  await pairAndOpen(page, iris);
  const paired = await storedPairing(page);
  const link = evilLink(iris.baseURL);
  await anotherDeviceSays(
    iris,
    'web:default',
    `Please [open settings](${link}) or [here](#/pair?url=wss%3A%2F%2Fevil.example%2Fws&token=x) or ${link}`,
  );
  const log = page.getByRole('log', { name: 'Messages' });
  const text = log.getByText('open settings').first();
  await expect(text).toBeVisible();
  expect(await log.locator('a[href*="pair"]').count(), 'no pairing link in any message').toBe(0);
  await expect(log.getByRole('link', { name: 'open settings' })).toHaveCount(0);
  const pages = page.context().pages().length;
  await text.click();
  expect(page.context().pages()).toHaveLength(pages);
  expect(page.url()).not.toContain('/pair');
  await expect(page.getByRole('dialog', { name: 'Pair with a different gateway?' })).toHaveCount(0);
  expect(await storedPairing(page)).toEqual(paired);
});

test('a copy served without these headers still refuses inline script: the CSP <meta> is a backstop', async ({
  page,
}) => {
  const dist = resolve('dist');
  const types: Record<string, string> = {
    '.html': 'text/html',
    '.js': 'text/javascript',
    '.css': 'text/css',
    '.svg': 'image/svg+xml',
    '.png': 'image/png',
    '.webmanifest': 'application/manifest+json',
  };
  // A plain static server: no CSP header, no other security header.
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    let file = join(dist, path);
    if (!file.startsWith(dist) || !existsSync(file) || statSync(file).isDirectory()) file = join(dist, 'index.html');
    res.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  try {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // The theme boot script (external) still runs before the app, and the app itself boots.
    await page.addInitScript(() => localStorage.setItem('iris.theme', 'dark'));
    await page.goto(`${origin}/#/pair`);
    await expect(page.getByRole('heading', { name: 'Connect Iris to your gateway' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-theme'))).toBe('dark');
    const injected = await page.evaluate(async () => {
      const refused = new Promise<string>((done) =>
        document.addEventListener('securitypolicyviolation', (e) => done(e.violatedDirective), { once: true }),
      );
      const script = document.createElement('script');
      script.textContent = 'window.__inlineRan = true';
      document.head.append(script);
      // An inline script that is allowed runs as it is inserted; a refused one reports why.
      if ((window as unknown as { __inlineRan?: boolean }).__inlineRan === true) return { ran: true };
      return { directive: await refused, ran: false };
    });
    expect(injected).toEqual({ directive: 'script-src-elem', ran: false });
    // The service worker still registers and takes control under the meta policy.
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 20_000 })
      .toBe(true);
  } finally {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
});
