// The layout audit: every main screen (e2e/screens.ts) on three phone sizes (the narrowest, 320 px, is
// also a 360 px phone under Android's larger text, which zooms the page), a tablet's and a touch
// laptop's, light and dark: nothing wider than the screen, every control big enough for a finger, no text
// cut off by its box, and axe-core with no serious or critical violations. A new screen is audited by
// adding it to SCREENS; a new check, by adding it to CHECKS. Each screen is opened once on the small phone,
// then the window grows to the next sizes (as a phone turned, a bigger phone, a tablet, a laptop: the same
// content, laid out again; from 900 px wide the channels are a sidebar, not a drawer).
import { rmSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { clippedText, horizontalOverflow, seriousAxeViolations, smallTargets } from './audit';
import { expect, launchServer, test } from './support';
import { screensFor } from './screens';

const SIZES = [
  { width: 320, height: 640 },
  { width: 360, height: 740 },
  { width: 412, height: 915 },
  { width: 768, height: 1024 },
  { width: 1280, height: 800 },
];

const CHECKS: [string, (page: Page) => Promise<string[]>][] = [
  ['sideways overflow', horizontalOverflow],
  ['tap targets under 44×44 px', (page) => smallTargets(page)],
  ['clipped text', clippedText],
  ['axe serious or critical', seriousAxeViolations],
];

test.use({ viewport: SIZES[0], hasTouch: true, isMobile: true });

for (const screen of screensFor('phone')) {
  test(`${screen.name}: fits ${SIZES.map((v) => `${v.width}×${v.height}`).join(', ')}, big targets, no clipped text, axe clean (light and dark)`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const iris = await launchServer(screen.server);
    try {
      await screen.open(page, iris, 'phone');
      for (const viewport of SIZES) {
        await page.setViewportSize(viewport);
        for (const scheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          // Laid out again for this size and scheme before measuring.
          await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
          for (const [what, check] of CHECKS) {
            expect
              .soft(await check(page), `${what}: ${screen.name} ${viewport.width}×${viewport.height} ${scheme}`)
              .toEqual([]);
          }
        }
      }
    } finally {
      await iris.server.close();
      rmSync(iris.dataDir, { recursive: true, force: true });
    }
  });
}
