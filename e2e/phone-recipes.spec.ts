// README's "On your phone" recipes, followed as a person follows them: the server started as `npm start`
// starts it, the printed https link opened, pairing lands in the default channel over wss://, and the
// service worker registers (which only a secure context allows). The reverse-proxy recipe runs behind a
// TLS-terminating proxy (e2e/support/tls-proxy.ts) standing in for Caddy; the certificate is a
// throwaway self-signed one, which the browser is told to accept as a phone would the real one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { freePort, hasOpenssl, makeSelfSignedCert } from '../server/http/testing/fixtures';
import { CHROMIUM_ARGS, chromiumExecutable } from './browser';
import { startCli, type StartedCli } from './support/cli';
import { startTlsProxy, type TlsProxy } from './support/tls-proxy';
import { expect, expectLanded, test } from './support';

// Chromium refuses a service worker from a certificate it does not trust, even with ignoreHTTPSErrors;
// the flag stands in for the phone trusting the real certificate (Caddy's, or mkcert's installed root).
test.use({
  ignoreHTTPSErrors: true,
  launchOptions: { executablePath: chromiumExecutable(), args: [...CHROMIUM_ARGS, '--ignore-certificate-errors'] },
});

let scratch: string;
test.beforeEach(() => {
  // In CI a missing openssl is a failure, not a skip (a skipped recipe proves nothing); elsewhere it is said.
  if (process.env.CI && !hasOpenssl()) throw new Error('the phone recipes must run in CI: install openssl');
  test.skip(!hasOpenssl(), 'openssl is not installed, so no test certificate can be made');
  scratch = mkdtempSync(join(tmpdir(), 'iris-recipe-'));
});
test.afterEach(() => rmSync(scratch, { recursive: true, force: true }));

/** Opens the printed link and checks what the recipe promises: paired, over wss://, service worker on. */
async function pairThrough(page: Page, link: string, origin: string): Promise<void> {
  const sockets: string[] = [];
  page.on('websocket', (ws) => sockets.push(ws.url()));
  await page.goto(link);
  await expectLanded(page);
  expect(new URL(page.url()).origin).toBe(origin);
  expect(sockets[0]).toBe(`${origin.replace(/^https:/, 'wss:')}/ws`);
  expect(await page.evaluate(() => isSecureContext)).toBe(true);
  const scope = await page.evaluate(() => navigator.serviceWorker.ready.then((r) => r.scope));
  expect(scope).toBe(`${origin}/`);
}

test('reverse proxy: --host 127.0.0.1 --public-url https://… behind a TLS proxy pairs and lands over wss://', async ({
  page,
}) => {
  const tls = makeSelfSignedCert(scratch);
  let proxy: TlsProxy | undefined;
  let cli: StartedCli | undefined;
  try {
    proxy = await startTlsProxy(tls);
    const publicUrl = `https://localhost:${proxy.port}`;
    const port = await freePort();
    cli = await startCli([
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--public-url',
      publicUrl,
      '--data-dir',
      join(scratch, 'data'),
    ]);
    proxy.forwardTo(port);
    // The printed link and QR code carry the proxy's address, not the server's own.
    expect(cli.link).toMatch(
      new RegExp(`^${publicUrl}/#/pair\\?url=${encodeURIComponent(`wss://localhost:${proxy.port}/ws`)}&token=`),
    );
    await expect.poll(() => cli!.stdout()).toContain(`Scan to pair a phone (${publicUrl}):`);
    await pairThrough(page, cli.link, publicUrl);
  } finally {
    await cli?.stop();
    await proxy?.close();
  }
});

test('--cert/--key: the printed https link pairs and lands over wss://', async ({ page }) => {
  const tls = makeSelfSignedCert(scratch);
  const port = await freePort();
  // As README's recipe, bound to this machine only (a test server never listens on the network).
  const cli = await startCli([
    '--cert',
    tls.certFile,
    '--key',
    tls.keyFile,
    '--port',
    String(port),
    '--host',
    '127.0.0.1',
    '--data-dir',
    join(scratch, 'data'),
  ]);
  try {
    const origin = `https://localhost:${port}`;
    expect(cli.link.startsWith(`${origin}/#/pair?url=${encodeURIComponent(`wss://localhost:${port}/ws`)}`)).toBe(true);
    await pairThrough(page, cli.link, origin);
  } finally {
    await cli.stop();
  }
});
