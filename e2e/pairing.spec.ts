// Issue 2's first screen: pair by link or by typing, see the channels, see auth errors in words.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, pair, test } from './fixtures';

test('the pairing link pairs without typing and lists the demo channels', async ({ page, iris }) => {
  await pair(page, iris);
  const channels = page.getByRole('list', { name: 'Your channels' });
  await expect(channels.getByRole('link', { name: 'General' })).toBeVisible();
  expect(await channels.getByRole('listitem').count()).toBeGreaterThanOrEqual(2);
  // The token does not stay in the address bar.
  expect(page.url()).not.toContain(iris.token);
});

test('typing the gateway URL and token connects', async ({ page, iris }) => {
  await page.goto(iris.baseURL + '/#/pair');
  await expect(page.getByLabel('Gateway URL')).toHaveValue(iris.gatewayUrl);
  await page.getByLabel('Token').fill(iris.token);
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByRole('status')).toHaveText('Connected');
  await expect(page.getByRole('list', { name: 'Your channels' }).getByRole('link', { name: 'General' })).toBeVisible();
});

test('a wrong token shows the gateway refusal in words and does not retry', async ({ page, iris }) => {
  const sockets: string[] = [];
  page.on('websocket', (ws) => sockets.push(ws.url()));
  await page.goto(iris.baseURL + '/#/pair');
  await page.getByLabel('Token').fill('not-the-token');
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByRole('status')).toContainText('The gateway refused this token');
  await page.waitForTimeout(2500);
  expect(sockets.length).toBe(1);
  expect(iris.server.gateway!.connectionCount()).toBe(0);
});

test('`npm start` prints a pairing link that opens the demo in Chromium', async ({ page }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'iris-cli-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
    await expect(page.getByRole('status')).toHaveText('Connected');
    await expect(page.getByRole('list', { name: 'Your channels' }).getByRole('link', { name: 'General' })).toBeVisible();
  } finally {
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
});
