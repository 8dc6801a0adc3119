// Issue 16.6, the picture viewer: a picture fills the screen (the demo's 64 px one too), pinch zooms on a
// phone, the wheel zooms on a desktop, a swipe down or Escape closes.
import type { Page } from '@playwright/test';
import { expect, test } from './support';
import { SCREENS } from './screens';

const viewerScreen = SCREENS.find((s) => s.name === 'viewer')!;
const viewer = (page: Page) => page.getByRole('dialog', { name: /^Picture viewer/ });
const image = (page: Page) => viewer(page).locator('img');

async function width(page: Page): Promise<number> {
  return (await image(page).boundingBox())!.width;
}

/** One finger or two on the touch screen (CDP touch events: Chromium turns them into pointer events). */
async function touch(page: Page, steps: { x: number; y: number }[][]) {
  const cdp = await page.context().newCDPSession(page);
  const points = (at: { x: number; y: number }[]) => at.map((p, id) => ({ x: p.x, y: p.y, id }));
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: points(steps[0]!) });
  for (const at of steps.slice(1))
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: points(at) });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

test.describe('phone', () => {
  test.use({ viewport: { width: 412, height: 915 }, hasTouch: true, isMobile: true });

  test('the 64 px picture fills the screen; a pinch zooms it; a swipe down closes the viewer', async ({
    page,
    iris,
  }) => {
    await viewerScreen.open(page, iris, 'phone');
    await expect(image(page)).toHaveJSProperty('naturalWidth', 64);
    // Square, so the screen's width is the limit: it fills it.
    await expect.poll(() => width(page)).toBeGreaterThanOrEqual(412 * 0.95);
    const box = (await image(page).boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(-1);
    expect(box.x + box.width).toBeLessThanOrEqual(413);

    const before = await width(page);
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    const spread = Array.from({ length: 8 }, (_, i) => [
      { x: cx - 30 - i * 15, y: cy },
      { x: cx + 30 + i * 15, y: cy },
    ]);
    await touch(page, spread);
    await expect.poll(() => width(page)).toBeGreaterThan(before * 2);
    await expect(viewer(page).getByRole('button', { name: 'Zoom out' })).toBeEnabled();

    // Back to fit, then pull the picture down: the viewer closes.
    const zoomOut = viewer(page).getByRole('button', { name: 'Zoom out' });
    for (let i = 0; i < 6 && (await zoomOut.isEnabled()); i++) await zoomOut.click();
    await expect(zoomOut).toBeDisabled();
    await touch(
      page,
      Array.from({ length: 8 }, (_, i) => [{ x: cx, y: cy - 100 + i * 30 }]),
    );
    await expect(viewer(page)).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Open picture/ })).toBeVisible();
  });
});

test.describe('desktop', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('the picture fills the height; the wheel zooms it where the pointer is; Escape closes', async ({
    page,
    iris,
  }) => {
    await viewerScreen.open(page, iris, 'desktop');
    const stage = (await viewer(page).locator('.viewer-stage').boundingBox())!;
    await expect.poll(async () => (await image(page).boundingBox())!.height).toBeGreaterThanOrEqual(stage.height - 2);
    const before = await width(page);
    await page.mouse.move(stage.x + stage.width / 2, stage.y + stage.height / 2);
    await page.mouse.wheel(0, -400);
    await expect.poll(() => width(page)).toBeGreaterThan(before * 1.5);
    await page.mouse.wheel(0, 4000);
    await expect.poll(() => width(page)).toBeLessThanOrEqual(before + 1);
    await page.keyboard.press('Escape');
    await expect(viewer(page)).toHaveCount(0);
  });
});
