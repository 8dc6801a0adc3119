// What the first screen of a new visitor downloads: the pairing page arrives with the entry (preloaded
// by index.html, not fetched after the entry has run), compressed, and none of the paired app's code
// (the app frame, the lane, the markdown pipeline, settings, the gateway session) comes with it.
import { LANE, demoGateway, expect, hermes, pairAndOpen, test } from './support';

test('the pairing screen loads only its own code, compressed, in one round trip', async ({ page, iris }) => {
  const scripts: { url: string; encoding: string | undefined }[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script')
      scripts.push({ url: response.url(), encoding: response.headers()['content-encoding'] });
  });
  await page.goto(`${iris.baseURL}/#/pair`);
  await expect(page.getByRole('button', { name: 'Connect' })).toBeVisible();
  await page.waitForLoadState('networkidle');

  const names = scripts.map((s) => new URL(s.url).pathname.replace(/^\/assets\//, '').replace(/-[\w-]{8}\.js$/, ''));
  expect(names).toContain('PairPage');
  for (const paired of ['Shell', 'LanePage', 'markdown', 'core', 'SettingsPage', 'session', 'reducer', 'bridge'])
    expect(names).not.toContain(paired);
  for (const script of scripts) expect(script.encoding, script.url).toBe('br');

  // index.html itself preloads the pairing chunk and its CSS, so they are fetched alongside the entry
  // rather than one round trip after it has run.
  const html = await (await page.request.get(`${iris.baseURL}/`)).text();
  const pairingChunk = new URL(scripts.find((s) => /\/PairPage-[\w-]+\.js$/.test(s.url))!.url).pathname;
  expect(html).toContain(`<link rel="modulepreload" crossorigin href="${pairingChunk}">`);
  expect(html).toMatch(/<link rel="preload" as="style" crossorigin href="\/assets\/PairPage-[\w-]+\.css">/);
});

test.describe('a lane opened at start', () => {
  // The service worker would answer the chunk requests itself, past the route that holds one back.
  test.use({ serviceWorkers: 'block' });

  test('shows its newest messages as plain text before the lane code and the Markdown pipeline arrive', async ({
    page,
    iris,
  }) => {
    const newest = 'Newest **in bold** <img src="/x" onerror="window.headXss=1">';
    const gateway = demoGateway(iris);
    gateway.store.conversations.append({ lane: LANE, role: 'assistant', text: newest, ts: Date.now() });
    gateway.store.flush();
    await pairAndOpen(page, iris);
    await expect(hermes(page, 'Newest in bold')).toBeVisible();

    // Opened again (a reload) with the lane's own code held back: the head shows it meanwhile.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/LanePage-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.reload();
    const head = page.getByRole('main', { name: 'Conversation (loading)' });
    await expect(head.getByText(newest, { exact: true })).toBeVisible();
    await expect(head.locator('strong, img')).toHaveCount(0);
    expect(await page.evaluate(() => 'headXss' in window)).toBe(false);

    // Then the lane itself replaces it, Markdown rendered (sanitized: the image's handler is gone).
    release();
    await expect(hermes(page, 'Newest in bold').locator('strong', { hasText: 'in bold' })).toBeVisible();
    await expect(head).toHaveCount(0);
    expect(await page.evaluate(() => 'headXss' in window)).toBe(false);
  });
});
