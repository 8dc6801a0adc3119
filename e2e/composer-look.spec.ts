// Issue 16.7, the composer on a phone: icon buttons that keep their names (Send, Stop), the text field
// gets the width, a full-width command list, plain words while the agent works, "thinking" and Stop
// ending with the reply, and a disabled Send that still looks like a button.
import { expect, messageBox, messages, mine, pairAndOpen, test } from './support';

const PHONE = { width: 360, height: 740 };

test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

/** WCAG contrast ratio of two computed rgb() colours. */
function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r, g, bl] = c
      .match(/[\d.]+/g)!
      .slice(0, 3)
      .map((v) => {
        const x = Number(v) / 255;
        return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
      });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

test('on a 360 px phone the text gets the width; Send is a named round icon, disabled it still reads as a button', async ({
  page,
  iris,
}) => {
  await pairAndOpen(page, iris);
  const send = page.getByRole('button', { name: 'Send' });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(send).toBeDisabled();
    const look = await send.evaluate((el) => {
      const s = getComputedStyle(el);
      const icon = getComputedStyle(el.querySelector('svg')!);
      const bar = getComputedStyle(el.closest('form')!);
      return { opacity: s.opacity, bg: s.backgroundColor, icon: icon.stroke, bar: bar.backgroundColor };
    });
    // Not a faded ghost: fully opaque, its own disc, and its arrow visible on it.
    expect(look.opacity).toBe('1');
    expect(look.bg).not.toBe(look.bar);
    expect(contrast(look.icon, look.bg), `${scheme}: arrow on a disabled Send`).toBeGreaterThanOrEqual(3);
  }

  await messageBox(page).fill('Plan my week: gym twice, finish the report');
  await expect(send).toBeEnabled();
  const box = (await send.boundingBox())!;
  expect(box.width).toBeGreaterThanOrEqual(44);
  expect(box.width).toBeLessThanOrEqual(48);
  expect(await send.locator('svg').count()).toBe(1);
  const field = (await messageBox(page).boundingBox())!;
  expect(field.width, 'the text field is most of the row').toBeGreaterThanOrEqual(PHONE.width * 0.6);
});

test('a long word or link in the text keeps the composer on the screen: it wraps, and Send stays in reach', async ({
  page,
  iris,
}) => {
  await pairAndOpen(page, iris);
  const send = page.getByRole('button', { name: 'Send' });
  for (const width of [PHONE.width, 320]) {
    await page.setViewportSize({ width, height: PHONE.height });
    for (const text of [`see https://example.com/${'a'.repeat(80)}`, 'x'.repeat(120)]) {
      await messageBox(page).fill(text);
      await expect(send).toBeEnabled();
      await expect(send).toBeInViewport({ ratio: 1 });
      const field = (await messageBox(page).boundingBox())!;
      expect(field.x + field.width, `${width} px: the text field ends on the screen`).toBeLessThanOrEqual(width);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), 'nothing scrolls sideways').toBe(width);
    }
  }
  await send.click();
  await expect(mine(page, 'x'.repeat(120))).toBeVisible();
});

test('the command list is as wide as the screen on a phone', async ({ page, iris }) => {
  await pairAndOpen(page, iris);
  await messageBox(page).click();
  await messageBox(page).press('/');
  const menu = page.getByRole('listbox', { name: 'Commands' });
  await expect(menu).toBeVisible();
  const box = (await menu.boundingBox())!;
  expect(box.x).toBeLessThanOrEqual(12);
  expect(box.x + box.width).toBeGreaterThanOrEqual(PHONE.width - 12);
  await expect(menu.getByRole('option').first()).toBeVisible();
});

test('while the agent works: plain words, Stop as a named icon, and "thinking" and Stop end with the reply even if the gateway never says idle', async ({
  page,
  iris,
}) => {
  // A gateway that never sends agent.idle (the reply's message.stop is the end the person sees). The demo
  // reply streams in a few hundred milliseconds, shorter than a poll under load: the reply's stop and all
  // after it are held back until the test has seen the working state, then passed on in order.
  let armed = false;
  let held: (string | Buffer)[] | undefined;
  let release = () => {};
  await page.routeWebSocket(/\/ws$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => server.send(m));
    release = () => {
      armed = false;
      for (const m of held ?? []) ws.send(m);
      held = undefined;
    };
    server.onMessage((m) => {
      if (typeof m === 'string' && m.includes('"agent.idle"')) return;
      if (armed && held === undefined && typeof m === 'string' && m.includes('"type":"message.stop"')) held = [];
      if (held !== undefined) held.push(m);
      else ws.send(m);
    });
  });
  await pairAndOpen(page, iris);
  await messageBox(page).fill('Plan my week');
  armed = true;
  await page.getByRole('button', { name: 'Send' }).click();
  // While it works: the field says what typing does in plain words; no paragraph explaining it.
  await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
  await expect(messageBox(page)).toHaveAttribute('placeholder', 'Tell it what to change…');
  await expect(page.getByText('A message now steers')).toHaveCount(0);
  release();

  await expect(messages(page).getByText('— Iris demo agent').last()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Stop' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
  await expect(
    page.getByRole('status').filter({ hasText: /Iris demo agent is (thinking|using tools|typing)/ }),
  ).toHaveCount(0);
  await expect(messageBox(page)).toHaveAttribute('placeholder', 'Message');
});

test('on the narrowest phone the message box stays one line high when the agent begins to work, so the conversation does not move', async ({
  page,
  iris,
}) => {
  // 320 px: an old small phone, or a 360 px one under Android's larger text (which zooms the page).
  await page.setViewportSize({ width: 320, height: 640 });
  await pairAndOpen(page, iris);
  const idle = (await messageBox(page).boundingBox())!.height;
  await messageBox(page).fill('/stream 400');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(messageBox(page)).toHaveAttribute('placeholder', 'Tell it what to change…');
  expect((await messageBox(page).boundingBox())!.height).toBe(idle);
  await page.screenshot({ path: '/tmp/look/composer-working-320.png' });
  // Typed text still wraps and grows the box, as before.
  await messageBox(page).fill('A longer steer typed while it works, which wraps onto a second line');
  expect((await messageBox(page).boundingBox())!.height).toBeGreaterThan(idle + 10);
});
