// Issue 20, big content: a log pasted into the composer and an answer that is a whole file. What a
// person sees and what reaches the gateway; the timings are in `npm run bench` (paste, big answer).
import type { Page } from '@playwright/test';
import { fileLine } from '../server/gateway/agent/script';
import {
  demoGateway,
  expect,
  LANE,
  messageBox,
  messages,
  pairAndOpen,
  routeGateway,
  test,
  withClipboard,
} from './support';

const pastedCard = (page: Page) => page.getByRole('group', { name: /^Pasted text/ });

/** A log of `bytes` characters (ASCII, one request per line). */
function logText(bytes: number): string {
  const lines: string[] = [];
  let total = 0;
  for (let n = 0; total < bytes; n++) {
    const line = `2026-12-01T09:${String(n % 60).padStart(2, '0')}:00Z INFO worker[${n}] handled "GET /api/items/${n}" in ${n % 97} ms`;
    lines.push(line);
    total += line.length + 1;
  }
  return lines.join('\n').slice(0, bytes);
}

/** Pastes `text` the way a person does: through the clipboard, with the keyboard's paste. */
async function paste(page: Page, text: string): Promise<void> {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await withClipboard(async () => {
    await page.evaluate((t) => navigator.clipboard.writeText(t), text);
    await messageBox(page).focus();
    await page.keyboard.press('ControlOrMeta+V');
  });
}

/** The stored setting `key` of the app's database (the drafts). */
function setting(page: Page, key: string): Promise<unknown> {
  return page.evaluate(async (key) => {
    const open = indexedDB.open('iris');
    const db = await new Promise<IDBDatabase>((resolve) => (open.onsuccess = () => resolve(open.result)));
    const value = await new Promise<unknown>((resolve) => {
      const req = db.transaction('settings').objectStore('settings').get(key);
      req.onsuccess = () => resolve((req.result as { value?: unknown } | undefined)?.value);
    });
    db.close();
    return value;
  }, key);
}

test.describe('composer', () => {
  test.use({ viewport: { width: 412, height: 915 } });

  test('a 1 MB paste is kept collapsed with its line count, survives a reload, and is sent whole', async ({
    page,
    iris,
  }) => {
    await pairAndOpen(page, iris);
    const log = logText(1_000_000);
    const lines = log.split('\n').length;
    await paste(page, log);
    await expect(pastedCard(page)).toBeVisible();
    await expect(pastedCard(page)).toContainText(`${lines.toLocaleString('en-US')} lines`);
    await expect(pastedCard(page)).toContainText('2026-12-01T09:00:00Z INFO worker[0]');
    // Not in the textbox: typing goes on there, after the pasted text.
    await expect(messageBox(page)).toHaveValue('');
    await messageBox(page).pressSequentially('Why is worker 7 slow?');

    // Kept across a reload (drafts are written after a pause, off the input path).
    await expect
      .poll(() => setting(page, `pasted:${LANE}`).then((v) => (v as string | undefined)?.length))
      .toBe(log.length);
    await expect.poll(() => setting(page, `draft:${LANE}`)).toBe('Why is worker 7 slow?');
    await page.reload();
    await expect(pastedCard(page)).toContainText(`${lines.toLocaleString('en-US')} lines`);
    await expect(messageBox(page)).toHaveValue('Why is worker 7 slow?');

    await page.getByRole('button', { name: 'Send' }).click();
    await expect(pastedCard(page)).toBeHidden();
    await expect(messageBox(page)).toHaveValue('');
    const stored = () => iris.server.gateway!.store.messages(LANE).filter((m) => m.role === 'user');
    await expect.poll(() => stored().length, { timeout: 30_000 }).toBe(1);
    // Every character, exactly: what was typed, a blank line, the paste.
    expect(stored()[0]!.text === `Why is worker 7 slow?\n\n${log}`).toBe(true);
    expect(stored()[0]!.media ?? []).toEqual([]);
    // The bubble shows the start of it, collapsed, with the whole length named.
    const bubble = page.getByRole('article', { name: /^You/ }).last();
    await expect(bubble).toContainText('Why is worker 7 slow?');
    await expect(
      bubble.getByRole('button', { name: `Show all ${(lines + 2).toLocaleString('en-US')} lines` }),
    ).toBeVisible();
  });

  test('a pasted log of 400 short lines, kept collapsed in the composer, is collapsed in its bubble too', async ({
    page,
    iris,
  }) => {
    await pairAndOpen(page, iris);
    const log = logText(60_000).split('\n').slice(0, 400).join('\n');
    await paste(page, log);
    await expect(pastedCard(page)).toContainText('400 lines');
    await page.getByRole('button', { name: 'Send' }).click();
    const bubble = page.getByRole('article', { name: /^You/ }).last();
    const all = bubble.getByRole('button', { name: 'Show all 400 lines' });
    await expect(all).toBeVisible();
    await expect(bubble).toContainText('worker[0]');
    await expect(bubble).not.toContainText('worker[399]');
    // A few lines, not a bubble many screens tall.
    expect(await bubble.evaluate((el) => el.getBoundingClientRect().height)).toBeLessThan(600);
    await page.screenshot({ path: '/tmp/look/pasted-log-bubble-phone.png' });
    await all.click();
    await expect(bubble).toContainText('worker[399]');
  });

  test('a pasted 60-line code block is collapsed in its bubble with one "Show all", which shows every line', async ({
    page,
    iris,
  }) => {
    await pairAndOpen(page, iris);
    const code = Array.from({ length: 60 }, (_, i) => `console.log('line ${i + 1}');`).join('\n');
    await paste(page, `\`\`\`js\n${code}\n\`\`\``);
    await expect(pastedCard(page)).toContainText('62 lines');
    await page.getByRole('button', { name: 'Send' }).click();
    const bubble = page.getByRole('article', { name: /^You/ }).last();
    // One way to see the rest: the bubble's own (the code block's is not offered inside it).
    await expect(bubble.getByRole('button', { name: /^Show all/ })).toHaveText(['Show all 62 lines']);
    await expect(bubble).not.toContainText("console.log('line 60');");
    await bubble.getByRole('button', { name: 'Show all 62 lines' }).click();
    await expect(bubble).toContainText("console.log('line 60');");
    await expect(bubble.getByRole('button', { name: /^Show all/ })).toHaveCount(0);
  });

  test('a pasted code block opened before its echo lands stays open when the gateway confirms it', async ({
    page,
    iris,
  }) => {
    // The message is held on its way to the gateway, so the person opens it while it is still pending.
    await routeGateway(page, { holdMs: 2_500 });
    await pairAndOpen(page, iris);
    const code = Array.from({ length: 60 }, (_, i) => `console.log('line ${i + 1}');`).join('\n');
    await paste(page, `\`\`\`js\n${code}\n\`\`\``);
    await page.getByRole('button', { name: 'Send' }).click();
    const bubble = page.getByRole('article', { name: /^You/ }).last();
    await expect(bubble).toContainText('Pending');
    await bubble.getByRole('button', { name: 'Show all 62 lines' }).click();
    await expect(bubble).toContainText("console.log('line 60');");
    await expect(bubble.locator('[data-delivery="pending"]')).toHaveCount(0, { timeout: 15_000 });
    await expect(bubble).toContainText("console.log('line 60');");
    await expect(bubble.getByRole('button', { name: /^Show all/ })).toHaveCount(0);
  });

  test('a text over the gateway frame limit is sent as a text file, and the person is told', async ({ page, iris }) => {
    await pairAndOpen(page, iris);
    const log = logText(1_300_000);
    await paste(page, log);
    await expect(pastedCard(page)).toBeVisible();
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'sent as the file pasted-text.txt' })).toBeVisible({
      timeout: 30_000,
    });
    await expect(pastedCard(page)).toBeHidden();
    const gateway = iris.server.gateway!.store;
    const sent = () => gateway.messages(LANE).find((m) => m.role === 'user');
    await expect.poll(() => sent()?.media?.length ?? 0, { timeout: 60_000 }).toBe(1);
    const ref = sent()!.media![0]!;
    expect(ref.filename).toBe('pasted-text.txt');
    expect(ref.mime).toBe('text/plain');
    expect(gateway.media.bytes(ref.media_id)?.toString('utf8') === log).toBe(true);
  });

  test('Edit puts a collapsed text into the textbox; Remove drops it', async ({ page, iris }) => {
    await pairAndOpen(page, iris);
    const log = logText(8_000);
    await messageBox(page).fill('Look:');
    await paste(page, log);
    await expect(pastedCard(page)).toBeVisible();
    await expect(messageBox(page)).toHaveValue('Look:');
    await pastedCard(page).getByRole('button', { name: 'Edit' }).click();
    await expect(pastedCard(page)).toBeHidden();
    await expect(messageBox(page)).toHaveValue(`Look:\n\n${log}`);

    await messageBox(page).fill('');
    await paste(page, log);
    await expect(pastedCard(page)).toBeVisible();
    await page.getByRole('button', { name: 'Remove pasted text' }).click();
    await expect(pastedCard(page)).toBeHidden();
    await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();
  });
});

test.describe('answers that are whole files', () => {
  test.use({ viewport: { width: 412, height: 915 } });

  test('a 3,000-line code block shows its first lines and "Show all 3,000 lines"; Copy copies every line', async ({
    page,
    iris,
  }) => {
    await pairAndOpen(page, iris);
    await messageBox(page).fill('/file 3000 300');
    await page.getByRole('button', { name: 'Send' }).click();
    const answer = page.getByRole('article', { name: /^Iris demo agent/ }).filter({ hasText: 'big.ts' });
    const more = answer.getByRole('button', { name: 'Show all 3,000 lines' });
    await expect(more).toBeVisible({ timeout: 30_000 });
    await expect(answer).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
    const code = answer.locator('pre code');
    const whole = Array.from({ length: 3000 }, (_, i) => fileLine(i + 1)).join('\n');
    // Collapsed: the first 20 lines, nothing after them.
    await expect(code).toHaveText(whole.split('\n').slice(0, 20).join('\n'));
    await expect(code).toHaveAttribute('data-highlighted', 'yes');

    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await withClipboard(async () => {
      await answer.getByRole('button', { name: 'Copy code' }).click();
      await expect(answer.getByRole('button', { name: 'Copied' })).toBeVisible();
      expect((await page.evaluate(() => navigator.clipboard.readText())) === whole).toBe(true);
    });

    // The reader is at the newest message, the block's first lines in view: Show all adds the rest
    // below them, and what they were reading stays where it is (the list does not follow the end).
    const top = () => code.evaluate((el) => Math.round(el.getBoundingClientRect().top));
    const before = await top();
    await more.click();
    await expect(answer.getByRole('button', { name: 'Show fewer lines' })).toHaveAttribute('aria-expanded', 'true');
    await expect(code).toHaveText(whole);
    await expect.poll(top).toBe(before);
    await answer.getByText(fileLine(3000)).scrollIntoViewIfNeeded();
    await expect(answer.getByText(fileLine(3000))).toBeInViewport();
    // The last piece, on screen now, is coloured too (the worker highlighted the whole block once).
    await expect(code.locator('.md-code-chunk').last().locator('.hljs-comment').last()).toHaveText(
      '// line 3000 of the file',
    );
  });

  test('a block opened with Show all stays open, and comes back coloured at once, after its row scrolled away and back', async ({
    page,
    iris,
  }) => {
    // The whole-file answer, then enough messages below it that the list drops its row when the
    // reader is at the newest one.
    const store = demoGateway(iris).store;
    const start = Date.now() - 40 * 60_000;
    const whole = Array.from({ length: 3000 }, (_, i) => fileLine(i + 1)).join('\n');
    store.conversations.append({ lane: LANE, role: 'user', text: 'The whole file, please', ts: start });
    store.conversations.append({
      lane: LANE,
      role: 'assistant',
      text: `Here is \`big.ts\`, 3000 lines:\n\n\`\`\`ts\n${whole}\n\`\`\``,
      ts: start + 60_000,
    });
    for (let i = 1; i <= 30; i++)
      store.conversations.append({
        lane: LANE,
        role: i % 2 ? 'user' : 'assistant',
        text: `Later message ${i}`,
        ts: start + (i + 1) * 60_000,
      });
    store.flush();
    await pairAndOpen(page, iris);
    const log = messages(page);
    const answer = log.getByRole('article', { name: /^Iris demo agent/ }).filter({ hasText: 'big.ts' });
    const toTop = () => log.evaluate((el) => (el.scrollTop = 0));
    const toNewest = () => log.evaluate((el) => (el.scrollTop = el.scrollHeight));
    await expect(log.getByText('Later message 30')).toBeInViewport();
    await expect(answer).toHaveCount(0);

    await expect.poll(async () => (await toTop(), await answer.count())).toBe(1);
    await answer.getByRole('button', { name: 'Show all 3,000 lines' }).click();
    await expect(answer.locator('pre code')).toHaveText(whole);
    await expect(answer.locator('pre code')).toHaveAttribute('data-highlighted', 'yes');

    // Away: the row leaves the page (once the focus has left it: the row holding focus stays, see
    // focusedRow.ts). Back: still open, and its first lines are coloured in the same task that puts the
    // row in the page (the colours are kept, not asked of the worker again).
    await page.getByRole('textbox', { name: 'Message' }).focus();
    await expect.poll(async () => (await toNewest(), await answer.count())).toBe(0);
    await log.evaluate((el) => {
      const seen = new MutationObserver(() => {
        const code = [...el.querySelectorAll('article')].find((a) => a.textContent?.includes('big.ts'));
        if (!code) return;
        seen.disconnect();
        (window as unknown as { firstSeen: string }).firstSeen =
          code.querySelector('.md-code-chunk .hljs-keyword')?.textContent ?? 'plain';
      });
      seen.observe(el, { childList: true, subtree: true });
    });
    await expect.poll(async () => (await toTop(), await answer.count())).toBe(1);
    expect(await page.evaluate(() => (window as unknown as { firstSeen?: string }).firstSeen)).toBe('export');
    await expect(answer.getByRole('button', { name: 'Show fewer lines' })).toHaveAttribute('aria-expanded', 'true');
    await expect(answer.locator('pre code')).toHaveText(whole);
  });

  test('an answer of one huge line (300,000 characters) and a one-line code block of 75,808 characters show their start, a screen or two tall, and open whole', async ({
    page,
    iris,
  }) => {
    // A base64 blob and minified JSON, as an agent pastes them: no line breaks, no spaces. Laid out
    // whole, the first was a bubble ~150,000 px tall (a 10 MiB one froze the lane for ~40 s).
    const blob = `BLOB-START${'QUJDRA'.repeat(50_000).slice(0, 300_000 - 'BLOB-START'.length - 'BLOB-END'.length)}BLOB-END`;
    const json = `{"start":1,${Array.from({ length: 6_000 }, (_, i) => `"k${i}":${i}`).join(',')},"end":"JSON-END"}`;
    const store = iris.server.gateway!.store.conversations;
    store.append({ lane: LANE, role: 'assistant', text: blob, ts: Date.now() - 60_000 });
    store.append({
      lane: LANE,
      role: 'assistant',
      text: `Minified:\n\n\`\`\`json\n${json}\n\`\`\``,
      ts: Date.now() - 30_000,
    });
    await pairAndOpen(page, iris);

    const block = messages(page).locator('.md-code').filter({ hasText: '{"start":1,' });
    const code = block.locator('pre code');
    await expect(code).toBeVisible();
    const codeMore = block.getByRole('button', { name: `Show all ${json.length.toLocaleString('en-US')} characters` });
    await expect(codeMore).toBeVisible();
    expect((await code.textContent())!.length).toBeLessThan(2_100);
    await expect(code).not.toContainText('JSON-END');
    // Copy copies the whole code, not what the preview shows.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await withClipboard(async () => {
      await block.getByRole('button', { name: 'Copy code' }).click();
      await expect(block.getByRole('button', { name: 'Copied' })).toBeVisible();
      expect((await page.evaluate(() => navigator.clipboard.readText())) === json).toBe(true);
    });
    await codeMore.click();
    await expect(code).toContainText('JSON-END');
    expect((await code.textContent()) === json).toBe(true);

    const answer = messages(page).getByRole('article').filter({ hasText: 'BLOB-START' });
    await answer.scrollIntoViewIfNeeded();
    const more = answer.getByRole('button', { name: 'Show all 300,000 characters' });
    await expect(more).toBeVisible();
    await expect(answer).not.toContainText('BLOB-END');
    // A few screens of a phone at most, not a hundred and fifty.
    expect(await answer.evaluate((el) => el.getBoundingClientRect().height)).toBeLessThan(2 * 915);
    await page.screenshot({ path: '/tmp/look/huge-line-phone.png' });
    await more.click();
    await expect(answer).toContainText('BLOB-END');
    // Shown whole, it is laid out in pieces (one task each, the page answers between them), not one block.
    const pieces = await answer
      .locator('.md-piece')
      .evaluateAll((els) => els.map((el) => (el.textContent ?? '').trim()));
    expect(pieces.length).toBeGreaterThanOrEqual(19);
    expect(Math.max(...pieces.map((text) => text.length))).toBeLessThanOrEqual(16_000);
    expect(pieces.join('') === blob).toBe(true);
  });

  test('a short code block is shown whole, with no Show all', async ({ page, iris }) => {
    await pairAndOpen(page, iris);
    await messageBox(page).fill('/file 12');
    await page.getByRole('button', { name: 'Send' }).click();
    const answer = page.getByRole('article', { name: /^Iris demo agent/ }).filter({ hasText: 'big.ts' });
    await expect(answer.locator('pre code')).toHaveText(
      Array.from({ length: 12 }, (_, i) => fileLine(i + 1)).join('\n'),
    );
    await expect(answer.getByRole('button', { name: /^Show all/ })).toHaveCount(0);
  });
});

test('screenshots: a collapsed paste in the composer and a collapsed 3,000-line answer, phone and desktop, light and dark', async ({
  page,
  iris,
}) => {
  const dir = process.env.SCREENSHOT_DIR ?? '/tmp/look';
  await pairAndOpen(page, iris);
  await messageBox(page).fill('/file 3000 30');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('button', { name: 'Show all 3,000 lines' })).toBeVisible({ timeout: 30_000 });
  await paste(page, logText(200_000));
  await messageBox(page).pressSequentially('Why is worker 7 slow?');
  await expect(pastedCard(page)).toBeVisible();
  for (const [name, size] of [
    ['phone', { width: 412, height: 915 }],
    ['desktop', { width: 1440, height: 900 }],
  ] as const) {
    await page.setViewportSize(size);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect(page.locator('pre code').last()).toHaveAttribute('data-highlighted', 'yes');
      await page.screenshot({ path: `${dir}/bigcontent-${name}-${scheme}.png` });
    }
  }
});
