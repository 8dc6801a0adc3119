// Captures the install sheet's screenshots (public/screenshots/*.png) from the built app talking to
// the demo gateway. Run after `npm run build` when the UI changes; the PNGs are committed.
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumExecutable } from '../e2e/browser';
import { launchServer } from '../e2e/fixtures';

const iris = await launchServer();
const browser = await chromium.launch({ executablePath: chromiumExecutable(), args: CHROMIUM_ARGS });
const shots = [
  { file: 'public/screenshots/phone.png', viewport: { width: 390, height: 844 }, scale: 2 },
  { file: 'public/screenshots/desktop.png', viewport: { width: 1280, height: 800 }, scale: 1 },
];
try {
  for (const shot of shots) {
    const context = await browser.newContext({ viewport: shot.viewport, deviceScaleFactor: shot.scale, colorScheme: 'light' });
    const page = await context.newPage();
    await page.goto(iris.pairingLink);
    await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
    await page.goto(iris.baseURL + '/#/c/web%3Ademo');
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Plan my week: gym twice, finish the report');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('log', { name: 'Messages' }).getByText('iris-demo-1').last().waitFor({ timeout: 30_000 });
    await page.waitForTimeout(500);
    await page.screenshot({ path: shot.file });
    await context.close();
    console.log('wrote', shot.file);
  }
} finally {
  await browser.close();
  await iris.server.close();
}
