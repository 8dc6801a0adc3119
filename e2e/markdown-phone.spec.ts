// Issue 16.5, Markdown on a phone: list numbers from 10 up stay inside the message, a wide table keeps
// its words whole and scrolls sideways, and a table header in the user's own bubble is readable.
import type { Locator } from '@playwright/test';
import { expect, messages, pair, settled, test } from './support';
import { RICH_ANSWER, USER_TABLE } from './screens';

for (const viewport of [
  { width: 360, height: 740 },
  { width: 412, height: 915 },
]) {
  test.describe(`on a ${viewport.width}×${viewport.height} phone`, () => {
    test.use({ viewport, hasTouch: true, isMobile: true });
    phoneTests(viewport.width);
  });
}

/**
 * The brightness of a few pixels just inside each side edge of `box`, rows `top`…`top + 4` (a strip of
 * padding, where no text is drawn), read from a real screenshot: what a person sees of an edge shade.
 */
async function edgeStrips(box: Locator, top: number): Promise<{ left: number; right: number }> {
  const rect = (await box.boundingBox())!;
  const png = await box.page().screenshot({ clip: rect });
  return box.page().evaluate(
    async ({ data, top, cssWidth }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${data}`;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.width;
      canvas.height = img.height;
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(img, 0, 0);
      const scale = img.width / cssWidth;
      const patch = (x: number) => {
        const { data } = ctx.getImageData(
          Math.round(x * scale),
          Math.round(top * scale),
          Math.round(3 * scale),
          Math.round(4 * scale),
        );
        let sum = 0;
        for (let i = 0; i < data.length; i += 4) sum += 0.3 * data[i]! + 0.59 * data[i + 1]! + 0.11 * data[i + 2]!;
        return sum / (data.length / 4);
      };
      return { left: patch(2), right: patch(cssWidth - 5) };
    },
    { data: png.toString('base64'), top, cssWidth: rect.width },
  );
}

function phoneTests(width: number): void {
  test.beforeEach(async ({ page, iris }) => {
    const store = iris.server.gateway!.store.conversations;
    store.append({ lane: 'web:default', role: 'assistant', text: RICH_ANSWER, ts: Date.now() - 60_000 });
    store.append({ lane: 'web:default', role: 'user', text: USER_TABLE, ts: Date.now() - 30_000 });
    await pair(page, iris);
    await page.goto(`${iris.baseURL}/#/c/web%3Adefault`);
    await expect(messages(page).getByText('Step 12 of the plan')).toBeVisible();
  });

  test('every list number, 1 to 12, is drawn inside the message column, none at the screen edge', async ({ page }) => {
    const list = messages(page).locator('ol').filter({ hasText: 'Step 12 of the plan' });
    await list.scrollIntoViewIfNeeded();
    const numbers = await list.evaluate((ol) => {
      const column = ol.closest('.md')!.getBoundingClientRect();
      const canvas = document.createElement('canvas').getContext('2d')!;
      return [...ol.querySelectorAll(':scope > li')].map((li, i) => {
        canvas.font = getComputedStyle(li).font;
        // An outside marker ends where the item's text starts and is as wide as "12. ".
        const markerLeft = li.getBoundingClientRect().left - canvas.measureText(`${i + 1}. `).width;
        return { n: i + 1, inside: markerLeft >= column.left - 0.5 && markerLeft >= 0 };
      });
    });
    expect(numbers).toHaveLength(12);
    expect(
      numbers.filter((x) => !x.inside).map((x) => x.n),
      'numbers outside the column',
    ).toEqual([]);
  });

  test('a wide table keeps every word whole and scrolls sideways inside its own region', async ({ page }) => {
    const region = messages(page).getByRole('region', { name: 'Table' }).filter({ hasText: 'Wednesday' });
    await region.scrollIntoViewIfNeeded();
    const look = await region.evaluate((el) => {
      const broken: string[] = [];
      for (const cell of el.querySelectorAll('th, td')) {
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          for (const m of node.textContent!.matchAll(/\S+/g)) {
            const range = document.createRange();
            range.setStart(node, m.index);
            range.setEnd(node, m.index + m[0].length);
            // A word split over two lines has two boxes.
            if (range.getClientRects().length > 1) broken.push(m[0]);
          }
        }
      }
      // A column squeezed to the screen's width stacks a cell's words one or two to a line.
      const lines = (cell: Element) => {
        const range = document.createRange();
        range.selectNodeContents(cell);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      };
      const tall = [...el.querySelectorAll('th, td')].filter((cell) => lines(cell) > 2).map((c) => c.textContent);
      const box = el.getBoundingClientRect();
      return {
        broken,
        tall,
        scrolls: el.scrollWidth > el.clientWidth,
        right: box.right,
        pageWidth: document.documentElement.scrollWidth,
      };
    });
    expect(look.broken, 'words broken inside a cell').toEqual([]);
    expect(look.tall, 'cells wrapped into more than two lines').toEqual([]);
    expect(look.scrolls, 'the table scrolls sideways').toBe(true);
    expect(look.right).toBeLessThanOrEqual(width);
    expect(look.pageWidth).toBeLessThanOrEqual(width);
    // A keyboard scrolls it too: the region takes focus, and an arrow key moves it sideways.
    await region.focus();
    await expect(region).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    // And it does scroll: its last column comes into view.
    await region.evaluate((el) => el.scrollBy({ left: 10_000 }));
    await expect(region.getByRole('columnheader', { name: 'Evening' })).toBeInViewport();
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`what scrolls sideways, a table or a long line of code, shows a shade on the side with more (${scheme})`, async ({
      page,
    }) => {
      await page.emulateMedia({ colorScheme: scheme });
      const table = messages(page).getByRole('region', { name: 'Table' }).filter({ hasText: 'Wednesday' });
      const code = messages(page).locator('pre').filter({ hasText: 'rsync' });
      for (const [what, box] of [
        ['table', table],
        ['code', code],
      ] as const) {
        await box.scrollIntoViewIfNeeded();
        // The first body row's top padding (a header cell paints over the scroller's background), or the code's.
        const top = what === 'table' ? (await box.locator('thead').boundingBox())!.height + 2 : 2;
        expect(await box.evaluate((el) => el.scrollWidth > el.clientWidth), `the ${what} scrolls`).toBe(true);
        await settled(page);
        // Darker on a light screen, lighter on a dark one: right minus left says which side is shaded.
        const start = await edgeStrips(box, top);
        await box.evaluate((el) => el.scrollBy({ left: 10_000 }));
        await settled(page);
        const end = await edgeStrips(box, top);
        const [atStart, atEnd] = [start.right - start.left, end.right - end.left];
        expect(Math.abs(atStart), `${what}: a shade on the right, where there is more`).toBeGreaterThan(6);
        expect(Math.sign(atEnd), `${what}, scrolled to its end: the shade is on the left`).toBe(-Math.sign(atStart));
        expect(Math.abs(atEnd), `${what}, scrolled to its end`).toBeGreaterThan(6);
        expect(Math.sign(atStart), `${what}: the shade darkens a light screen, lightens a dark one`).toBe(
          scheme === 'light' ? -1 : 1,
        );
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    });

    test(`a table header in the user's own bubble is readable (${scheme})`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      const header = messages(page).locator('.msg-user').getByRole('columnheader', { name: 'Plan' });
      await header.scrollIntoViewIfNeeded();
      const ratio = await header.evaluate((th) => {
        const rgba = (c: string) => c.match(/[\d.]+/g)!.map(Number);
        const bubble = rgba(getComputedStyle(th.closest('.bubble')!).backgroundColor);
        const [r, g, b, a = 1] = rgba(getComputedStyle(th).backgroundColor);
        const over = [r!, g!, b!].map((v, i) => v * a + bubble[i]! * (1 - a));
        const text = rgba(getComputedStyle(th).color);
        const lum = (c: number[]) =>
          c.slice(0, 3).reduce((sum, v, i) => {
            const x = v / 255;
            return sum + [0.2126, 0.7152, 0.0722][i]! * (x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4);
          }, 0);
        const [hi, lo] = [lum(text), lum(over)].sort((x, y) => y - x);
        return (hi! + 0.05) / (lo! + 0.05);
      });
      expect(ratio).toBeGreaterThanOrEqual(4.5);
    });
  }
}
