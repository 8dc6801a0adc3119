// Issue 5: installable and offline. Runs against the built app (the service worker only registers there).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumExecutable } from './browser';
import {
  anotherDeviceSays,
  channelLink,
  expect,
  hermes,
  launchServer,
  pair,
  shareFromAnotherApp,
  storeRows,
  test,
} from './support';

async function waitForServiceWorker(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

async function chat(page: Page, text: string) {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('log', { name: 'Messages' }).getByText(`Echo: ${text}`)).toBeVisible();
  // Stored final, not only shown: a streamed reply's text shows before the store has it, and a reload
  // offline (or with the server gone) then reads it half-way (CI, 1 run in 3 of a session).
  await expect(hermes(page, `Echo: ${text}`)).toHaveAttribute('aria-busy', 'false');
}

test('offline: the shell, channels, history, search and drafts work, and a queued message is delivered once', async ({
  page,
  context,
  iris,
}) => {
  await pair(page, iris);
  await page.goto(iris.baseURL + '/#/');
  await waitForServiceWorker(page);
  await chat(page, 'zebra crossing offline');

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByText(/Offline|Reconnecting/).first()).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Channels' }).getByText('General').first()).toBeAttached();
  const log = page.getByRole('log', { name: 'Messages' });
  await expect(log.getByText('Echo: zebra crossing offline')).toBeVisible();

  // Search over the cache.
  await page.goto(iris.baseURL + '/#/search');
  await page.getByRole('searchbox', { name: 'Search messages' }).fill('zebra');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main').getByText(/zebra/i).first()).toBeVisible();

  // A message typed offline is queued, survives a reload, and is delivered once when back online.
  await page.goto(iris.baseURL + '/#/');
  await page.getByRole('textbox', { name: 'Message' }).fill('queued while offline');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(log.getByRole('article').filter({ hasText: 'queued while offline' })).toBeVisible();
  // A draft typed offline survives a reload too.
  await page.getByRole('textbox', { name: 'Message' }).fill('a draft kept offline');
  await expect
    .poll(
      async () =>
        (await storeRows<{ key: string; value: unknown }>(page, 'settings')).find((r) => r.key === 'draft:web:default')
          ?.value,
    )
    .toBe('a draft kept offline');
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue('a draft kept offline');

  await context.setOffline(false);
  await expect(log.getByText('Echo: queued while offline')).toBeVisible({ timeout: 30_000 });
  const stored = iris.server.gateway!.store.messages('web:default').filter((m) => m.text === 'queued while offline');
  expect(stored).toHaveLength(1);
});

test('with the serving process stopped, the app still opens from the service worker', async ({ page }) => {
  const iris = await launchServer();
  try {
    await pair(page, iris);
    await page.goto(iris.baseURL + '/#/');
    await waitForServiceWorker(page);
    await chat(page, 'before the server stops');
  } finally {
    await iris.server.close();
  }
  await page.reload();
  await expect(page.getByRole('log', { name: 'Messages' }).getByText('Echo: before the server stops')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  rmSync(iris.dataDir, { recursive: true, force: true });
});

test('Chromium reports the app installable, and the manifest is complete', async ({ iris }) => {
  test.setTimeout(120_000);
  // Installability needs a profile on disk: Playwright's default contexts count as incognito.
  const profile = mkdtempSync(join(tmpdir(), 'iris-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumExecutable(),
    args: CHROMIUM_ARGS,
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(iris.baseURL + '/#/pair');
    await waitForServiceWorker(page);
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);
    await checkManifest(page, iris.baseURL);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

async function checkManifest(page: Page, baseURL: string) {
  const manifestUrl = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(manifestUrl).toBeTruthy();
  const manifest = await (await page.request.get(new URL(manifestUrl!, baseURL).href)).json();
  expect(manifest).toMatchObject({
    name: expect.any(String),
    short_name: 'Iris',
    display: 'standalone',
    start_url: '/#/',
    scope: '/',
  });
  expect(manifest.description).toBeTruthy();
  expect(manifest.theme_color).toBeTruthy();
  expect(manifest.background_color).toBeTruthy();
  const sizes = manifest.icons.map((i: { sizes: string; purpose?: string }) => `${i.sizes}:${i.purpose ?? 'any'}`);
  expect(sizes).toEqual(expect.arrayContaining(['192x192:any', '512x512:any', '192x192:maskable', '512x512:maskable']));
  for (const image of [...manifest.icons, ...manifest.screenshots]) {
    const res = await page.request.get(new URL(image.src, baseURL).href);
    expect(res.status(), image.src).toBe(200);
    expect(res.headers()['content-type']).toBe(image.type);
  }
  expect(manifest.screenshots.map((s: { form_factor: string }) => s.form_factor).sort()).toEqual(['narrow', 'wide']);
  expect(manifest.shortcuts.map((s: { name: string }) => s.name)).toEqual(['New message', 'Search']);
  expect(manifest.share_target).toMatchObject({ action: '/share-target', method: 'POST' });
}

test('the Install action appears when the browser offers it and hides once installed', async ({ page, iris }) => {
  await pair(page, iris);
  await page.goto(iris.baseURL + '/#/settings');
  const install = page.getByRole('button', { name: 'Install' });
  await expect(page.getByRole('heading', { name: 'App', exact: true })).toBeVisible();
  await expect(install).toHaveCount(0);
  await page.evaluate(() => {
    const offer = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
      prompt: async () => {
        (window as unknown as { prompted: boolean }).prompted = true;
      },
      userChoice: Promise.resolve({ outcome: 'dismissed' }),
    });
    window.dispatchEvent(offer);
  });
  await expect(install).toBeVisible();
  await install.click();
  await expect.poll(() => page.evaluate(() => (window as unknown as { prompted?: boolean }).prompted)).toBe(true);
  await page.evaluate(() => window.dispatchEvent(new Event('appinstalled')));
  await expect(install).toHaveCount(0);
});

test('a second build deployed over the first offers "Reload", which brings it with the draft intact', async ({
  page,
}) => {
  const distDir = mkdtempSync(join(tmpdir(), 'iris-dist-'));
  const secondDir = mkdtempSync(join(tmpdir(), 'iris-dist2-'));
  cpSync(resolve('dist'), distDir, { recursive: true });
  const iris = await launchServer({ distDir });
  try {
    await pair(page, iris);
    await page.goto(iris.baseURL + '/#/');
    await waitForServiceWorker(page);
    const firstVersion = readFileSync(join(distDir, 'sw.js'), 'utf8');

    // Build a second version with a distinct build id and deploy it over the first.
    execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--outDir', secondDir, '--emptyOutDir'], {
      env: { ...process.env, IRIS_BUILD_ID: 'second' },
      stdio: 'ignore',
    });
    cpSync(secondDir, distDir, { recursive: true });
    expect(readFileSync(join(distDir, 'sw.js'), 'utf8')).not.toBe(firstVersion);

    await page.getByRole('textbox', { name: 'Message' }).fill('half-typed thought');
    let loads = 0;
    page.on('load', () => loads++);
    // What the app does hourly and on becoming visible: look for a new version.
    await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.update()));
    await expect(page.getByText('A new version is ready')).toBeVisible({ timeout: 30_000 });
    // Nothing reloads by itself: the new worker is installed and waits (it would take over, and the page
    // reload, only after that), and the page has not loaded again.
    await expect
      .poll(() => page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration())?.waiting))
      .toBe(true);
    expect(loads).toBe(0);
    await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue('half-typed thought');

    // Waited for from before the click: the reload can finish before the click's own promise resolves.
    const reloaded = page.waitForEvent('load');
    await page.getByRole('button', { name: 'Reload' }).click();
    await reloaded;
    expect(loads).toBe(1);
    await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue('half-typed thought');
    await page.goto(iris.baseURL + '/#/settings');
    await expect(page.getByText(/Version .*\+second/)).toBeVisible();
  } finally {
    await iris.server.close();
    rmSync(distDir, { recursive: true, force: true });
    rmSync(secondDir, { recursive: true, force: true });
    rmSync(iris.dataDir, { recursive: true, force: true });
  }
});

test('a tab of a newer build that upgrades the database makes this one say so, with Reload', async ({
  page,
  context,
  iris,
}) => {
  await pair(page, iris); // lands in a lane
  await chat(page, 'before the upgrade');
  await expect(page.getByRole('status').filter({ hasText: 'updated in another tab' })).toHaveCount(0);

  // Another tab opens the database at a newer version, as a newer build's Dexie does. It goes through
  // only once this tab has let go of its connection.
  const newer = await context.newPage();
  await newer.goto(iris.baseURL + '/manifest.webmanifest');
  const upgraded = await newer.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const request = indexedDB.open('iris', 10_000);
        request.onsuccess = () => resolve(request.result.version);
        request.onerror = () => reject(request.error);
      }),
  );
  expect(upgraded).toBe(10_000);

  const prompt = page.getByRole('status').filter({ hasText: 'Iris was updated in another tab' });
  await expect(prompt).toBeVisible();
  await expect(prompt.getByRole('button', { name: 'Reload' })).toBeVisible();
});

test('sharing text and a file from another app opens a composer prefilled in the lane the user picks', async ({
  page,
  iris,
}) => {
  await pair(page, iris);
  await page.goto(iris.baseURL + '/#/');
  await waitForServiceWorker(page);
  // A thread in General: listed under General, not under whichever channel comes before it. The gateway
  // names it from the message, then renames it after the first reply; wait for the name it keeps (a
  // loaded machine may see only that one).
  await anotherDeviceSays(iris, 'web:default', '/thread Plan the trip');
  await expect(channelLink(page, 'Re: Plan the trip')).toBeAttached();
  await shareFromAnotherApp(page, 'https://example.org/article');
  await expect(page.getByRole('heading', { name: 'Share to Iris' })).toBeVisible();
  await expect(page.getByText('1 file: list.txt')).toBeVisible();
  await expect(page.getByRole('main').getByRole('listitem')).toHaveText(['General', /Re: Plan the trip/, 'Demo']);
  await page.getByRole('main').getByRole('button', { name: 'Demo', exact: true }).click();
  await expect(page).toHaveURL(/#\/c\/web%3Ademo|#\/c\/web:demo/);
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue('Look at this\nhttps://example.org/article');
  await expect(page.getByRole('list', { name: 'Attachments' })).toContainText('list.txt');

  // Sent as one message with the file, which the gateway stores byte for byte.
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('log', { name: 'Messages' }).getByText(/Received:.*list\.txt/)).toBeVisible({
    timeout: 30_000,
  });
  const sent = iris.server
    .gateway!.store.messages('web:demo')
    .find((m) => m.role === 'user' && m.text.startsWith('Look at this'));
  expect(sent?.media?.map((m) => m.filename)).toEqual(['list.txt']);
});

test('the installed icon badge shows the unread total', async ({ page, iris }) => {
  await page.addInitScript(() => {
    const calls: (number | undefined)[] = [];
    (window as unknown as { badgeCalls: typeof calls }).badgeCalls = calls;
    Object.defineProperty(navigator, 'setAppBadge', {
      value: async (n?: number) => void calls.push(n),
      configurable: true,
    });
    Object.defineProperty(navigator, 'clearAppBadge', { value: async () => void calls.push(0), configurable: true });
  });
  await pair(page, iris);
  await page.goto(iris.baseURL + '/#/c/web%3Ademo');
  // A reply lands in General while the user looks at Demo.
  const { TestClient } = await import('../server/gateway/testclient');
  const other = await TestClient.paired(iris.gatewayUrl, { token: iris.token });
  await other.chat('hello from another device', { chat_id: 'web:default' });
  void other.close();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { badgeCalls: number[] }).badgeCalls.at(-1)), {
      timeout: 15_000,
    })
    .toBeGreaterThan(0);
});
