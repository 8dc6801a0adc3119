// What the first screen of a new visitor downloads: the pairing page arrives with the entry (preloaded
// by index.html, not fetched after the entry has run), compressed, and none of the paired app's code
// (the app frame, the lane, the markdown pipeline, settings, the gateway session) comes with it.
import { expect, test } from './support';

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
