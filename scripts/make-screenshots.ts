// `npm run screenshots [-- --out DIR] [-- --only NAME,NAME]`: photographs every main screen
// (e2e/screens.ts) of the built app talking to the demo gateway, on a phone (412×915) and a desktop
// (1440×900), light and dark, into DIR (default /tmp/iris-screenshots), then refreshes the install
// sheet's pictures (public/screenshots/, named in pwa.manifest.ts) from the lane screen in light.
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumExecutable } from '../e2e/browser';
import { launchServer } from '../e2e/support';
import { screensFor, type Device } from '../e2e/screens';

const { values } = parseArgs({ options: { out: { type: 'string' }, only: { type: 'string' } } });
const out = values.out ?? '/tmp/iris-screenshots';
const only = values.only ? new Set(values.only.split(',')) : undefined;
mkdirSync(out, { recursive: true });

export const DEVICES: Record<Device, { viewport: { width: number; height: number }; scale: number; touch: boolean }> = {
  phone: { viewport: { width: 412, height: 915 }, scale: 2, touch: true },
  desktop: { viewport: { width: 1440, height: 900 }, scale: 1, touch: false },
};
/** The install sheet's pictures: which screen, and the file pwa.manifest.ts names. */
const MANIFEST_SHOTS: { device: Device; screen: string; file: string }[] = [
  { device: 'phone', screen: 'lane', file: 'public/screenshots/phone.png' },
  { device: 'desktop', screen: 'lane', file: 'public/screenshots/desktop.png' },
];

const browser = await chromium.launch({ executablePath: chromiumExecutable(), args: CHROMIUM_ARGS });
let failed = 0;
try {
  for (const device of ['phone', 'desktop'] as const) {
    const { viewport, scale, touch } = DEVICES[device];
    for (const screen of screensFor(device)) {
      if (only && !only.has(screen.name)) continue;
      const iris = await launchServer(screen.server);
      const context = await browser.newContext({
        viewport,
        deviceScaleFactor: scale,
        hasTouch: touch,
        isMobile: touch,
      });
      const page = await context.newPage();
      try {
        await screen.open(page, iris, device);
        for (const scheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          // Let transitions (a dialog sliding in, the theme's colours) settle before the picture.
          // (Only finite ones: a thinking indicator's dots run until the reply ends.)
          await page.evaluate(() =>
            Promise.all(
              document
                .getAnimations()
                .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)))
                .map((a) => a.finished.catch(() => undefined)),
            ),
          );
          const file = join(out, `${screen.name}-${device}-${scheme}.png`);
          await page.screenshot({ path: file });
          console.log('wrote', file);
        }
      } catch (error) {
        failed++;
        console.error(
          `could not photograph ${screen.name} on a ${device}: ${(error as Error).message.split('\n', 1)[0]}`,
        );
      } finally {
        await context.close();
        await iris.server.close();
        rmSync(iris.dataDir, { recursive: true, force: true });
      }
    }
  }
} finally {
  await browser.close();
}
for (const shot of MANIFEST_SHOTS) {
  if (only && !only.has(shot.screen)) continue;
  copyFileSync(join(out, `${shot.screen}-${shot.device}-light.png`), shot.file);
  console.log('updated', shot.file);
}
if (failed > 0) process.exitCode = 1;
