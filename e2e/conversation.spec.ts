// Issue 4, "A conversation": the lane view against the demo gateway, as a person sees it.
import { rmSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { TestClient } from '../server/gateway/testclient';
import {
  channelRow,
  channelsNav,
  anotherDeviceSays,
  demoGateway,
  expect,
  hermes,
  type IrisServer,
  LANE,
  launchServer,
  messageBox,
  messages,
  mine,
  openLane,
  pageTitle,
  pairAndOpen,
  routeGateway,
  seedLongLane,
  sendMessage,
  settled,
  speakForGateway,
  storeRows,
  test,
  withClipboard,
} from './support';

const DAY = 24 * 3600 * 1000;

const gatewayStore = (iris: IrisServer) => demoGateway(iris).store;

/** A second device on the same gateway, speaking the protocol directly. */
function otherDevice(iris: IrisServer): Promise<TestClient> {
  return TestClient.paired(iris.gatewayUrl, { token: iris.token, device_name: 'other device' });
}

/** Records every delivery state the bubble with `marker` shows, in order (states can be brief). */
async function recordDelivery(page: Page, marker: string): Promise<() => Promise<string[]>> {
  await page.evaluate((marker) => {
    const seen: string[] = [];
    (window as unknown as { __delivery: string[] }).__delivery = seen;
    const look = () => {
      for (const el of document.querySelectorAll('article')) {
        if (!el.textContent?.includes(marker)) continue;
        const state = el.querySelector('[data-delivery]')?.getAttribute('data-delivery');
        if (state && seen[seen.length - 1] !== state) seen.push(state);
      }
    };
    new MutationObserver(look).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
  }, marker);
  return () => page.evaluate(() => (window as unknown as { __delivery: string[] }).__delivery);
}

/**
 * Passes the gateway's frames to the page in order, except that a `tool.end` (and every frame after it)
 * waits until the page has recorded `Running <tool>…` (StreamRecord.__lines), up to `maxMs`; after a wait
 * that ran out, none is held (the stream ends, and the test says what was missing). The app shows what
 * it has stored, when its reads land: a page further behind the stream than a tool's run (seen with the
 * CPU slowed 8x on a loaded machine) stores the tool's start and end in one write, or reads after the end,
 * and rightly never shows running a tool that has finished. Held, the tool runs until the page shows it.
 */
async function holdToolEnds(page: Page, maxMs = 3000): Promise<void> {
  await page.routeWebSocket(/\/ws$/, (ws) => {
    const server = ws.connectToServer();
    const queue: (string | Buffer)[] = [];
    let pumping = false;
    let holding = true;
    const shown = (line: string) =>
      page
        .evaluate((line) => (window as unknown as Partial<StreamRecord>).__lines?.includes(line) ?? false, line)
        .catch(() => true); // the page is gone: nothing left to wait for
    const pump = async () => {
      if (pumping) return;
      pumping = true;
      while (queue.length > 0) {
        const message = queue[0]!;
        const tool =
          typeof message === 'string' && /"type":"tool\.end"/.test(message)
            ? (JSON.parse(message) as { payload?: { name?: string } }).payload?.name
            : undefined;
        if (tool && holding) {
          const until = Date.now() + maxMs;
          while (!(await shown(`Running ${tool}…`)))
            if (Date.now() < until) await new Promise((r) => setTimeout(r, 50));
            else {
              holding = false;
              break;
            }
        }
        ws.send(queue.shift()!);
      }
      pumping = false;
    };
    server.onMessage((message) => {
      queue.push(message);
      void pump().catch(() => {}); // the socket closed with the test
    });
  });
}

/** What the page records of a streaming reply, on window (read back by a second evaluate). */
interface StreamRecord {
  __texts: string[];
  __lines: string[];
  __tops: number[];
  __cards: number;
  __node?: Element;
  __twice: string[];
}

test('a streamed reply grows in place; its tools fold into one "Used 2 tools" line, its reasoning into "Thought for", model and tokens into Details', async ({
  page,
}) => {
  // A slow stream, so each step can be seen even on a busy machine (the tool runs for ~0.8 s), and each
  // tool kept running until the page has shown it so (holdToolEnds).
  const iris = await launchServer({ streamDelayMs: 400 });
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await holdToolEnds(page);
    await pairAndOpen(page, iris);
    await page.evaluate(() => {
      const w = window as unknown as StreamRecord;
      w.__texts = [];
      w.__twice = [];
      w.__lines = [];
      w.__tops = [];
      w.__cards = 0;
      new MutationObserver(() => {
        const streaming = document.querySelector('article[aria-busy="true"][aria-label^="Iris demo agent"]');
        if (streaming) {
          w.__node ??= streaming;
          const md = streaming.querySelector<HTMLElement>(':scope > .md');
          const text = md?.textContent ?? '';
          if (text && w.__texts[w.__texts.length - 1] !== text) {
            w.__texts.push(text);
            w.__tops.push(md!.getBoundingClientRect().top - streaming.getBoundingClientRect().top);
          }
          w.__cards = Math.max(w.__cards, streaming.querySelectorAll('[role="group"][aria-label^="Tool "]').length);
        }
        const line = document.querySelector('article[aria-label^="Iris demo agent"] .turn-line')?.textContent ?? '';
        if (line && w.__lines[w.__lines.length - 1] !== line) w.__lines.push(line);
        const status = document.querySelector('.thinking')?.textContent ?? '';
        if (streaming && status) w.__twice.push(`${line} | ${status}`);
      }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });

    await sendMessage(page, 'Count the words in this sentence please');
    const thinking = page.getByRole('status').filter({ hasText: /Iris demo agent is/ });
    // The turn's bubble says what it is doing ("Running word_count…"); the line above the composer does not repeat it.
    await expect(messages(page).locator('article[aria-busy="true"][aria-label^="Iris demo agent"]')).toBeVisible();
    await expect(thinking).toHaveCount(0);

    const reply = hermes(page, 'Iris demo agent');
    await expect(reply).toBeVisible();
    // The stream's 14 steps take ~6 s, more when a tool is held running for a page behind it.
    await expect(reply).toHaveAttribute('aria-busy', 'false', { timeout: 20_000 });
    await expect(thinking).toHaveCount(0);

    // The text grew in place: several growing versions in the same element, the last one the final text,
    // and never pushed down by what the turn added above it.
    const seen = await page.evaluate(() => {
      const w = window as unknown as StreamRecord;
      const final = document.querySelector('article[aria-label^="Iris demo agent"]')!;
      const md = final.querySelector(':scope > .md')!;
      const top = md.getBoundingClientRect().top - final.getBoundingClientRect().top;
      return {
        texts: w.__texts,
        lines: w.__lines,
        tops: [...w.__tops, top],
        cards: w.__cards,
        sameNode: w.__node === final,
        twice: w.__twice,
      };
    });
    expect(seen.twice, 'the bubble and the line above the composer both said what the turn was doing').toEqual([]);
    expect(seen.texts.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < seen.texts.length; i++)
      expect(seen.texts[i]!.length).toBeGreaterThan(seen.texts[i - 1]!.length);
    expect(seen.sameNode).toBe(true);
    expect(Math.max(...seen.tops) - Math.min(...seen.tops)).toBeLessThan(1);
    await expect(reply.locator(':scope > .md')).toContainText('Your message has 7 words');

    // While it ran, one live line said what was running; no tool card took the screen.
    expect(seen.lines).toContain('Running word_count…');
    expect(seen.lines).toContain('Running format_code…');
    expect(seen.cards).toBe(0);
    // Done: one line for the turn's tools (the demo runs two), and the reasoning's line beside it.
    const used = reply.getByRole('button', { name: /^Used 2 tools · \d+(\.\d+)? (ms|s)$/ });
    await expect(used).toHaveAttribute('aria-expanded', 'false');
    const thought = reply.getByRole('button', { name: /^Thought for / });
    await expect(thought).toHaveAttribute('aria-expanded', 'false');
    // Both boxes from one layout: measured one call after the other, a scroll between them (the list
    // keeping its bottom as the finished reply settles) moved one and not the other.
    const boxes = () =>
      reply.evaluate((article) => {
        const box = (selector: string) => {
          const rect = article.querySelector(selector)?.getBoundingClientRect();
          return rect && { y: rect.y, height: rect.height };
        };
        return { line: box('.turn-line'), text: box(':scope > .md'), meta: box('.msg-meta') };
      });
    const { line: lineBox, text: textBox } = await boxes();
    expect(lineBox!.y).toBeLessThan(textBox!.y);
    expect(lineBox!.height).toBeLessThanOrEqual(44);
    await expect(reply.getByRole('group', { name: /^Tool / })).toHaveCount(0);
    await expect(reply.getByText('Counting the words first.')).toHaveCount(0);
    await expect(reply.locator('.msg-meta')).toHaveCount(0);
    await expect(reply).not.toContainText('tokens');

    // Opened, the line shows today's cards: both, in order, done with a duration.
    await used.click();
    await expect(used).toHaveAttribute('aria-expanded', 'true');
    const tools = reply.getByRole('group', { name: /^Tool / });
    await expect(tools).toHaveCount(2);
    await expect(tools.nth(0)).toHaveAccessibleName('Tool word_count');
    await expect(tools.nth(1)).toHaveAccessibleName('Tool format_code');
    for (const card of await tools.all()) {
      await expect(card).toContainText('Done');
      await expect(card).toContainText(/\d+(\.\d+)? (ms|s)/);
    }
    const wordCount = reply.getByRole('group', { name: 'Tool word_count' });
    await expect(wordCount).toContainText('word_count("Count the words in this sentence please")');
    await expect(wordCount).toContainText('counting');
    await wordCount.getByRole('button', { name: 'Show output' }).click();
    await expect(wordCount.getByRole('button', { name: 'Hide output' })).toHaveAttribute('aria-expanded', 'true');
    await expect(wordCount).toContainText('7 words, 39 characters');

    // Commentary, muted, in the opened turn.
    const commentary = reply.getByText('Counting the words first.');
    await expect(commentary).toBeVisible();
    await expect(reply.getByText('Formatting it as a code block.')).toBeVisible();
    const [commentaryColor, textColor] = await Promise.all([
      commentary.evaluate((el) => getComputedStyle(el).color),
      reply.locator(':scope > .md').evaluate((el) => getComputedStyle(el).color),
    ]);
    expect(commentaryColor).not.toBe(textColor);
    await used.click();
    await expect(tools).toHaveCount(0);

    // The reasoning opens from its line.
    await thought.click();
    await expect(thought).toHaveAttribute('aria-expanded', 'true');
    await expect(reply.locator('.reasoning')).toContainText('The user wrote 7 words');

    // Model and tokens are in the message's details.
    await reply.getByRole('button', { name: 'Details' }).click();
    const meta = reply.locator('.msg-meta');
    await expect(meta).toContainText('iris-demo-1');
    await expect(meta).toContainText(/\d+ tokens/);
    const opened = await boxes();
    expect(opened.meta!.y).toBeGreaterThan(opened.text!.y);

    // Seen at the bottom of a visible page: the lane is read, here and for the gateway.
    const channels = page.getByRole('navigation', { name: 'Channels' });
    await expect(channels.getByRole('link', { name: /^General/ })).not.toHaveAccessibleName(/unread/);
    // The mark names the reply on screen, which is the gateway's newest message (both read in one go).
    const finalId = await reply.getAttribute('data-message-id');
    await expect
      .poll(() => {
        const { store } = iris.server.gateway!;
        return { newest: store.messages(LANE).at(-1)?.message_id, read: store.conversations.readReceipt(LANE) };
      })
      .toEqual({ newest: finalId, read: finalId });
  } finally {
    await iris.server.close();
    rmSync(iris.dataDir, { recursive: true, force: true });
  }
});

test('a device paired after a reply shows what its turn did: its tools and its thought time, from history', async ({
  page,
  browser,
  iris,
}) => {
  await pairAndOpen(page, iris);
  await messageBox(page).fill('count these words please');
  await messageBox(page).press('Enter');
  const tools = (p: Page) =>
    messages(p)
      .getByRole('article')
      .filter({ hasText: 'Echo: count these words please' })
      .last()
      .getByRole('button', { name: /^Used 2 tools · / });
  await expect(tools(page)).toBeVisible();
  const later = await browser.newPage({ viewport: page.viewportSize()! });
  try {
    await pairAndOpen(later, iris);
    const line = tools(later);
    await expect(line).toHaveAccessibleName(
      (await tools(page).getAttribute('aria-label')) ?? (await tools(page).innerText()),
    );
    await line.click();
    const reply = messages(later).getByRole('article').filter({ hasText: 'Echo: count these words please' }).last();
    await expect(reply.getByRole('group', { name: /^Tool word_count/ })).toBeVisible();
    await expect(reply.getByRole('group', { name: /^Tool format_code/ })).toBeVisible();
    // And how long it thought, as the gateway measured it ("Thought process" without the time).
    await expect(reply.getByRole('button', { name: /^Thought for / })).toBeVisible();
  } finally {
    await later.close();
  }
});

test('on a phone, the turn\'s "Thought for" line sits right under the agent’s name and time, with full-size hit areas', async ({
  page,
  iris,
}) => {
  await page.setViewportSize({ width: 412, height: 915 });
  await pairAndOpen(page, iris);
  await sendMessage(page, 'Plan my week: gym twice, finish the report');
  const reply = hermes(page, 'Iris demo agent');
  await expect(reply).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
  const thought = reply.getByRole('button', { name: /^Thought for / });
  const look = await reply.evaluate((article) => {
    const text = (el: Element) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return range.getBoundingClientRect();
    };
    const author = text(article.querySelector('.msg-author')!);
    const toggle = article.querySelector('.turn-toggle')!;
    const label = text(toggle.querySelector('span')!);
    const md = article.querySelector(':scope > .md')!.getBoundingClientRect();
    return {
      headerToLine: label.top - author.bottom,
      lineToText: md.top - label.bottom,
      hitHeight: toggle.getBoundingClientRect().height,
    };
  });
  // As close as two lines of a paragraph, not a blank band (it was 23 px).
  expect(look.headerToLine).toBeLessThanOrEqual(14);
  expect(look.lineToText).toBeLessThanOrEqual(14);
  expect(look.hitHeight).toBeGreaterThanOrEqual(44);
  // The header's buttons win where their hit areas meet the line's; the line still opens from its words.
  await thought.click();
  await expect(thought).toHaveAttribute('aria-expanded', 'true');
});

test('while a reply streams, its bubble says "Writing…" and the line above the composer says nothing more', async ({
  page,
}) => {
  const iris = await launchServer({ streamDelayMs: 150 });
  try {
    await pairAndOpen(page, iris);
    await sendMessage(page, '/long');
    const reply = messages(page).locator('article[aria-busy="true"][aria-label^="Iris demo agent"]');
    await expect(reply.getByText('Line 3 of a long answer')).toBeVisible();
    await expect(reply.locator('.turn-line')).toContainText('Writing…');
    await expect(page.getByRole('status').filter({ hasText: /Iris demo agent is/ })).toHaveCount(0);
    await expect(page.locator('.thinking')).toBeEmpty();
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
  } finally {
    await iris.server.close();
    rmSync(iris.dataDir, { recursive: true, force: true });
  }
});

test('reasoning that streams before the text shows live under "Thinking…", then folds into "Thought for" above the text, which never moves', async ({
  page,
}) => {
  const iris = await launchServer({ streamDelayMs: 300 });
  try {
    await pairAndOpen(page, iris);
    // What a person saw at each change of the streaming reply: its line, the reasoning shown, and
    // where the reply's text sat in its bubble.
    await page.evaluate(() => {
      const w = window as unknown as { __seen: { line: string; reasoning: string; text: string; top: number }[] };
      w.__seen = [];
      new MutationObserver(() => {
        const reply = document.querySelector('article[aria-busy="true"][aria-label^="Iris demo agent"]');
        if (!reply) return;
        const md = reply.querySelector<HTMLElement>(':scope > .md');
        const seen = {
          line: reply.querySelector('.turn-line')?.textContent ?? '',
          reasoning: reply.querySelector('.reasoning')?.textContent ?? '',
          text: md?.textContent ?? '',
          top: md ? md.getBoundingClientRect().top - reply.getBoundingClientRect().top : -1,
        };
        const last = w.__seen.at(-1);
        if (!last || last.line !== seen.line || last.reasoning !== seen.reasoning || last.text !== seen.text)
          w.__seen.push(seen);
      }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });

    await sendMessage(page, '/think Plan my week');
    const reply = hermes(page, 'Iris demo agent');
    // Live: the line says "Thinking…" and the reasoning grows under it before any text.
    const live = page.getByRole('button', { name: 'Thinking…' });
    await expect(live).toBeVisible();
    await expect(live).toHaveAttribute('aria-expanded', 'true');
    await expect(page.locator('article[aria-label^="Iris demo agent"] .reasoning')).toContainText('Counting its words');

    await expect(reply).toHaveAttribute('aria-busy', 'false');
    const seen = await page.evaluate(
      () => (window as unknown as { __seen: { line: string; reasoning: string; text: string; top: number }[] }).__seen,
    );
    const beforeText = seen.filter((s) => s.text === '');
    const withText = seen.filter((s) => s.text !== '');
    // The reasoning streamed (several growing versions) under "Thinking…" while there was no text yet.
    const reasonings = [...new Set(beforeText.map((s) => s.reasoning).filter(Boolean))];
    expect(reasonings.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < reasonings.length; i++) expect(reasonings[i]!.startsWith(reasonings[i - 1]!.trim())).toBe(true);
    expect(beforeText.filter((s) => s.reasoning).every((s) => s.line.startsWith('Thinking…'))).toBe(true);
    // From the first text on: the line reads "Thought for…", the reasoning folded away, and the
    // text stayed where it first appeared (nothing popped in above what was already read).
    expect(withText.length).toBeGreaterThanOrEqual(3);
    for (const s of withText) {
      expect(s.line).toMatch(/^Thought for /);
      expect(s.reasoning).toBe('');
    }
    const tops = withText.map((s) => s.top);
    expect(Math.max(...tops) - Math.min(...tops)).toBeLessThan(1);

    // Done: the line sits above the text and opens to the whole reasoning.
    const thought = reply.getByRole('button', { name: /^Thought for / });
    await expect(thought).toHaveAttribute('aria-expanded', 'false');
    const [lineBox, textBox] = await Promise.all([
      reply.locator('.turn-line').boundingBox(),
      reply.locator(':scope > .md').boundingBox(),
    ]);
    expect(lineBox!.y + lineBox!.height).toBeLessThanOrEqual(textBox!.y);
    await thought.click();
    await expect(reply.locator('.reasoning')).toHaveText(
      'Reading the question. Counting its words and characters. Then echoing it in a code block.',
    );
  } finally {
    await iris.server.close();
    rmSync(iris.dataDir, { recursive: true, force: true });
  }
});

test('my bubble shows pending, then sent, then read', async ({ page }) => {
  // A slow long reply first, so the agent is surely still busy when the second message arrives and it
  // waits (sent, not yet read). At the default speed the reply could end first: the echo and the read
  // receipt then came together and the app rightly showed only the newer state.
  const iris = await launchServer({ streamDelayMs: 120 });
  try {
    await routeGateway(page, { holdMs: 700 });
    await pairAndOpen(page, iris);
    await sendMessage(page, '/long');
    await expect(mine(page, '/long')).toBeVisible();
    const states = await recordDelivery(page, 'second in line');
    await sendMessage(page, 'second in line');
    const bubble = mine(page, 'second in line');
    await expect(bubble).toContainText('Pending');
    await expect(bubble.locator('[data-delivery="read"]')).toBeVisible({ timeout: 30_000 });
    await expect(bubble).toContainText('Read');
    expect(await states()).toEqual(['pending', 'sent', 'read']);
  } finally {
    await iris.server.close();
    rmSync(iris.dataDir, { recursive: true, force: true });
  }
});

// The gateway tells only the sending device when the agent reads a message (spec README §5); another
// device of the same person knows it from the agent's answer that follows.
test('a message sent from another device shows read once the agent has answered after it; mine keeps the gateway’s word', async ({
  page,
  iris,
}) => {
  await pairAndOpen(page, iris);
  await anotherDeviceSays(iris, LANE, 'said on my other phone');
  const theirs = mine(page, 'said on my other phone');
  await expect(hermes(page, 'said on my other phone')).toBeVisible();
  await expect(theirs.locator('[data-delivery]')).toHaveAttribute('data-delivery', 'read');
  await expect(theirs).toContainText('Read');

  // One of this device's own that the gateway never says was read stays "sent", whatever follows it.
  await routeGateway(page, { dropReadReceipts: true });
  await page.reload();
  await sendMessage(page, 'said here, receipt lost');
  await expect(hermes(page, 'said here, receipt lost')).toBeVisible();
  await expect(mine(page, 'said here, receipt lost').locator('[data-delivery]')).toHaveAttribute(
    'data-delivery',
    'sent',
  );
  await expect(theirs.locator('[data-delivery]')).toHaveAttribute('data-delivery', 'read');
});

test('on a phone, my message stays on screen as its echo replaces the pending bubble: no frame without it, no blank row, nothing moving back', async ({
  page,
  iris,
}) => {
  await page.setViewportSize({ width: 412, height: 915 });
  await pairAndOpen(page, iris);
  const twelveLines = Array.from({ length: 12 }, (_, i) => `second message, line ${i + 1}`).join('\n');
  for (const [marker, text] of [
    ['first of three', 'first of three'],
    ['second message, line 1', twelveLines],
    ['third of three', 'third of three'],
  ]) {
    // Every animation frame from the moment the bubble shows until its reply is written. Counted: a frame
    // in which the message is not in the list (it may scroll off the top as a long reply grows below it,
    // not vanish), or a row without its message is on screen; rows overlapping (a row
    // placed at an estimated height); the row after the message (the agent's placeholder, then its
    // reply) going away once it showed.
    await page.evaluate((marker) => {
      const w = window as unknown as { __misses: string[]; __watching: boolean };
      w.__misses = [];
      w.__watching = true;
      let seen = false;
      let followed = false;
      const look = () => {
        if (!w.__watching) return;
        const box = document.querySelector('[role="log"]')!.getBoundingClientRect();
        const onScreen = (el: Element) => {
          const r = el.getBoundingClientRect();
          return r.height > 0 && r.bottom > box.top && r.top < box.bottom;
        };
        const rows = [...document.querySelectorAll('.vrow')]
          .map((el) => ({ el, box: el.getBoundingClientRect() }))
          .sort((x, y) => x.box.top - y.box.top);
        const at = rows.findIndex(
          (r) => r.box.height > 0 && [...r.el.querySelectorAll('article')].some((a) => a.textContent?.includes(marker)),
        );
        seen ||= at >= 0;
        if (seen && at < 0) w.__misses.push('message missing');
        if ([...document.querySelectorAll('.msg-placeholder')].some(onScreen)) w.__misses.push('blank row');
        for (let i = 1; i < rows.length; i++)
          if (rows[i]!.box.top < rows[i - 1]!.box.bottom - 1) w.__misses.push('rows overlap');
        if (at >= 0 && at < rows.length - 1) followed = true;
        else if (at >= 0 && followed) w.__misses.push('the row after the message went away');
        requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    }, marker);
    await messageBox(page).fill(text);
    await page.getByRole('button', { name: 'Send' }).click();
    const bubble = messages(page)
      .getByRole('article', { name: /^You, / })
      .filter({ hasText: marker });
    await expect(bubble).toContainText('Read');
    await expect(hermes(page, marker).filter({ hasText: '— Iris demo agent' })).toBeVisible();
    const misses = await page.evaluate(() => {
      const w = window as unknown as { __misses: string[]; __watching: boolean };
      w.__watching = false;
      return w.__misses;
    });
    expect(misses, marker).toEqual([]);
  }
});

test('a message sent while the gateway is unreachable waits, then goes; a refused one can be retried', async ({
  page,
}) => {
  let iris = await launchServer();
  const { port, dataDir, token } = { port: iris.server.port, dataDir: iris.dataDir, token: iris.token };
  try {
    await routeGateway(page, { failMarker: 'refused once' });
    await pairAndOpen(page, iris);
    await iris.server.close();
    await expect(page.getByRole('status').filter({ hasText: 'Connected' })).toHaveCount(0);

    await sendMessage(page, 'written while offline');
    const offline = mine(page, 'written while offline');
    await expect(offline).toContainText('Pending');
    // The banner comes once the app has failed to reconnect and settled: the message is still pending,
    // nothing took it for sent while the gateway was away.
    await expect(page.getByRole('status').filter({ hasText: /^(Offline\.|Reconnecting to the gateway)/ })).toBeVisible({
      timeout: 20_000,
    });
    await expect(offline).toContainText('Pending');

    iris = await launchServer({ port, dataDir, token });
    await expect(offline.locator('[data-delivery="sent"], [data-delivery="read"]')).toBeVisible({ timeout: 40_000 });
    expect(
      gatewayStore(iris)
        .messages(LANE)
        .filter((m) => m.text === 'written while offline'),
    ).toHaveLength(1);

    // The gateway refuses a send: the bubble says so, and Retry sends it.
    await expect(hermes(page, 'written while offline')).toBeVisible();
    await sendMessage(page, 'refused once');
    const refused = mine(page, 'refused once');
    await expect(refused).toContainText('Not sent');
    await refused.getByRole('button', { name: 'Retry' }).click();
    await expect(refused.locator('[data-delivery="sent"], [data-delivery="read"]')).toBeVisible();
    await expect(refused.getByRole('button', { name: 'Retry' })).toHaveCount(0);
    expect(
      gatewayStore(iris)
        .messages(LANE)
        .filter((m) => m.text === 'refused once'),
    ).toHaveLength(1);
  } finally {
    await iris.server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a message of mine not sent yet, or refused, can be deleted: it is never sent', async ({ page }) => {
  let iris = await launchServer();
  const { port, dataDir, token } = { port: iris.server.port, dataDir: iris.dataDir, token: iris.token };
  try {
    await routeGateway(page, { failMarker: 'refused' });
    await pairAndOpen(page, iris);
    // The dialog's code comes from the service worker's cache once the server is gone.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 15_000 });
    await iris.server.close();
    await sendMessage(page, 'take this back');
    const waiting = mine(page, 'take this back');
    await expect(waiting).toContainText('Pending');
    await waiting.hover();
    await waiting.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this message?' });
    await expect(dialog).toContainText(
      'It has not been sent yet. It will not be sent, and is deleted from this device.',
    );
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(waiting).toHaveCount(0);

    // Back online: what was deleted is not sent; what follows it is.
    iris = await launchServer({ port, dataDir, token });
    await sendMessage(page, 'this one stays');
    await expect(mine(page, 'this one stays').locator('[data-delivery="sent"], [data-delivery="read"]')).toBeVisible({
      timeout: 40_000,
    });
    const texts = () =>
      gatewayStore(iris)
        .messages(LANE)
        .map((m) => m.text);
    expect(texts()).toContain('this one stays');
    expect(texts()).not.toContain('take this back');

    // A refused one: the gateway never stored it; deleted, it stays gone after a reload.
    await sendMessage(page, 'refused for good');
    const refused = mine(page, 'refused for good');
    await expect(refused).toContainText('Not sent');
    await refused.hover();
    await refused.getByRole('button', { name: 'Delete' }).click();
    await expect(dialog).toContainText('It was not sent. It will be deleted from this device.');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(refused).toHaveCount(0);
    await page.reload();
    await expect(mine(page, 'this one stays')).toBeVisible();
    await expect(mine(page, 'refused for good')).toHaveCount(0);
    expect(texts()).not.toContain('refused for good');
  } finally {
    await iris.server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('reply quotes the message; copy copies; delete asks first and removes it on every device', async ({
  page,
  iris,
  browser,
}) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await pairAndOpen(page, iris);
  await sendMessage(page, 'First thought');
  const answer = hermes(page, 'Echo: First thought');
  await expect(answer).toHaveAttribute('aria-busy', 'false');

  // Reply to the agent's answer.
  await answer.hover();
  await answer.getByRole('button', { name: 'Reply' }).click();
  await expect(page.getByText('Replying to Iris demo agent')).toBeVisible();
  await sendMessage(page, 'A follow-up');
  const followUp = mine(page, 'A follow-up');
  await expect(followUp.getByRole('button', { name: /^In reply to Iris demo agent: / })).toContainText(
    'Echo: First thought',
  );
  // The pending bubble shows the quote before the gateway has stored the message: ask until it has.
  await expect
    .poll(
      () =>
        gatewayStore(iris)
          .messages(LANE)
          .find((m) => m.text === 'A follow-up')?.reply_to,
    )
    .toBeTruthy();

  // Copy a message (its Markdown source), and a code block (its code).
  await withClipboard(async () => {
    await answer.hover();
    await answer.getByRole('button', { name: 'Copy', exact: true }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toContain('**Echo:** First thought');
    await answer.getByRole('button', { name: 'Copy code' }).click();
    await expect(answer.getByRole('button', { name: 'Copied' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('First thought');
  });
  const first = mine(page, 'First thought');

  // A second device (its own browser profile) sees the message…
  const second = await browser.newContext();
  const other = await second.newPage();
  await pairAndOpen(other, iris);
  await expect(mine(other, 'First thought')).toBeVisible();

  // …delete asks first: cancel keeps it.
  await first.hover();
  await first.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete this message?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(first).toBeVisible();

  await first.hover();
  await first.getByRole('button', { name: 'Delete' }).click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(first).toHaveCount(0);
  await expect(mine(other, 'First thought')).toHaveCount(0);
  expect(
    gatewayStore(iris)
      .messages(LANE)
      .some((m) => m.text === 'First thought'),
  ).toBe(false);
  await second.close();
});

test('day separators, and a /remind message set apart from the conversation', async ({ page, iris }) => {
  const store = gatewayStore(iris);
  const now = Date.now();
  store.conversations.append({ lane: LANE, role: 'user', text: 'Three days ago', ts: now - 3 * DAY });
  store.conversations.append({ lane: LANE, role: 'assistant', text: 'Yesterday’s answer', ts: now - DAY });
  await pairAndOpen(page, iris);
  const log = messages(page);
  await expect(mine(page, 'Three days ago')).toBeVisible();
  const threeDaysAgo = new Date(now - 3 * DAY);
  const dateLabel = new Intl.DateTimeFormat('en-US', { weekday: 'long', month: 'long', day: 'numeric' }).format(
    threeDaysAgo,
  );
  await expect(log.getByText(dateLabel, { exact: true })).toBeVisible();
  await expect(log.getByText('Yesterday', { exact: true })).toBeVisible();

  await sendMessage(page, '/remind 1 Stretch your legs');
  await expect(log.getByText('Today', { exact: true })).toBeVisible();
  const reminder = log.getByRole('article', { name: /^Reminder, / });
  await expect(reminder).toContainText('Stretch your legs', { timeout: 15_000 });
  // Labelled once, by the card; the channel list says whose the last message is.
  await expect(reminder).not.toContainText('Reminder:');
  await expect(channelRow(page, 'General')).toContainText('Reminder: Stretch your legs');
  // Centered, unlike the conversation's bubbles.
  const [card, list] = await Promise.all([reminder.locator('.notice-card').boundingBox(), log.boundingBox()]);
  const leftGap = card!.x - list!.x;
  const rightGap = list!.x + list!.width - (card!.x + card!.width);
  expect(Math.abs(leftGap - rightGap)).toBeLessThan(24);
  expect(leftGap).toBeGreaterThan(40);
  const bubble = await mine(page, '/remind 1 Stretch your legs')
    .locator('.bubble')
    .evaluate((el) => getComputedStyle(el).backgroundColor);
  const cardBg = await reminder.locator('.notice-card').evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(cardBg).not.toBe(bubble);
});

test.describe('a lane left open over midnight', () => {
  test.use({ timezoneId: 'UTC' });

  test('its day lines move on: what was Today reads Yesterday, and the new day’s Today', async ({ page, iris }) => {
    const store = gatewayStore(iris);
    const lateSunday = Date.UTC(2026, 11, 6, 23, 57);
    store.conversations.append({ lane: LANE, role: 'user', text: 'Late on Sunday', ts: lateSunday });
    // Stamped by a gateway whose clock is a little ahead of the browser's: past midnight already.
    store.conversations.append({ lane: LANE, role: 'assistant', text: 'Early on Monday', ts: lateSunday + 4 * 60_000 });
    await page.clock.install({ time: lateSunday + 2 * 60_000 });
    await pairAndOpen(page, iris);
    const log = messages(page);
    await expect(mine(page, 'Late on Sunday')).toBeVisible();
    const dayLines = log.locator('.day-sep');
    await expect(dayLines).toHaveText(['Today', 'Monday, December 7']);
    // Midnight passes with the page open.
    await page.clock.fastForward(2 * 60_000);
    await expect(dayLines).toHaveText(['Yesterday', 'Today']);
    await expect(hermes(page, 'Early on Monday')).toBeVisible();
  });
});

/**
 * How a line of text reads on screen: right to left when its first letter is drawn right of its last,
 * and how far its right end is from its block's.
 */
function reading(block: Locator) {
  return block.evaluate((el) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const texts: Text[] = [];
    while (walker.nextNode()) if ((walker.currentNode as Text).data.trim()) texts.push(walker.currentNode as Text);
    const first = texts[0]!;
    const last = texts[texts.length - 1]!;
    const letter = (node: Text, at: number) => {
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + 1);
      return range.getBoundingClientRect();
    };
    const start = first.data.search(/\S/);
    const end = last.data.trimEnd().length - 1;
    const whole = document.createRange();
    whole.selectNodeContents(el);
    return {
      direction: letter(first, start).left > letter(last, end).left ? 'rtl' : 'ltr',
      gapRight: Math.round(el.getBoundingClientRect().right - whole.getBoundingClientRect().right),
    };
  });
}

test('Hebrew or Arabic reads right to left, in the message box and in the conversation; English and code stay left to right', async ({
  page,
  iris,
}) => {
  gatewayStore(iris).conversations.append({
    lane: LANE,
    role: 'assistant',
    text:
      'مرحبا بك في القناة!\n\n- البند الأول\n- البند الثاني\n\n> اقتباس قصير\n\n| العمود | القيمة |\n| --- | --- |\n| أ | ١ |\n\n' +
      '```js\nconsole.log("ok");\n```\n\nAnd a line in English:\n\n- one\n- two',
    ts: Date.now() - 60_000,
  });
  await pairAndOpen(page, iris);
  const reply = hermes(page, 'مرحبا بك في القناة');
  await expect(reply).toBeVisible();
  const body = reply.locator('.md');
  // Rendered by marked (until its code has loaded, a message shows as one plain paragraph).
  await expect(body.locator('ul').first()).toBeVisible();
  expect(await reading(body.locator('p').first())).toEqual({ direction: 'rtl', gapRight: 0 });
  expect((await reading(body.locator('li').first())).direction).toBe('rtl');
  expect((await reading(body.locator('pre'))).direction).toBe('ltr');
  expect((await reading(body.locator('p').last())).direction).toBe('ltr');
  // The Arabic list's bullets, the quote's bar and the table's first column are on the right; the
  // English list's bullets on the left.
  const side = (el: Locator) => el.evaluate((node) => getComputedStyle(node).direction);
  expect(await side(body.locator('ul').first())).toBe('rtl');
  expect(await side(body.locator('blockquote'))).toBe('rtl');
  expect(await side(body.locator('table'))).toBe('rtl');
  expect(await side(body.locator('ul').last())).toBe('ltr');
  const [firstHeader, secondHeader] = await Promise.all(
    [0, 1].map(async (i) => (await body.locator('th').nth(i).boundingBox())!.x),
  );
  expect(firstHeader).toBeGreaterThan(secondHeader!);

  const hebrew = 'שלום! מה שלומך היום?';
  await messageBox(page).fill(hebrew);
  // The box takes its text's direction on the next animation frame after an input (composerText's
  // onInput batches long pastes), so it is polled, not read once.
  const boxDirection = () => side(messageBox(page));
  await expect.poll(boxDirection).toBe('rtl');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect.poll(async () => (await reading(mine(page, hebrew).locator('.md p'))).direction).toBe('rtl');
  await expect(messageBox(page)).toHaveValue('');
  await expect.poll(boxDirection).toBe('ltr');
  await sendMessage(page, 'Hello in English!');
  await expect
    .poll(async () => (await reading(mine(page, 'Hello in English!').locator('.md p'))).direction)
    .toBe('ltr');
  await page.screenshot({ path: '/tmp/look/rtl-lane.png' });

  // A channel named in Hebrew: its name field, its row and the page's title read right to left.
  await channelsNav(page).getByRole('button', { name: 'New channel' }).click();
  const dialog = page.getByRole('dialog', { name: 'New channel' });
  await dialog.getByLabel('Name').fill('צוות הפיתוח!');
  await expect.poll(() => side(dialog.getByLabel('Name'))).toBe('rtl');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(pageTitle(page)).toHaveText('צוות הפיתוח!');
  expect((await reading(page.locator('.topbar-title-text'))).direction).toBe('rtl');
  expect((await reading(page.locator('.channel-name', { hasText: 'צוות' }))).direction).toBe('rtl');
});

test('the agent’s right-to-left words elsewhere read right to left too: a reply’s quote (in the lane and over the message box), its reasoning, a question, a search result, a channel’s preview', async ({
  page,
  iris,
}) => {
  const store = gatewayStore(iris).conversations;
  const asked = store.append({
    lane: LANE,
    role: 'assistant',
    text: 'שלום! איך אפשר לעזור?',
    reasoning: 'המשתמש אמר שלום, אז אענה בשלום.',
    ts: Date.now() - 120_000,
  });
  store.append({
    lane: LANE,
    role: 'user',
    text: 'תודה רבה, הכל טוב!',
    reply_to: asked.message_id,
    ts: Date.now() - 60_000,
  });
  const speak = await speakForGateway(page);
  await pairAndOpen(page, iris);
  const side = (el: Locator) =>
    el.evaluate((node) => {
      const style = getComputedStyle(node);
      return { direction: style.direction, barRight: style.borderRightWidth, barLeft: style.borderLeftWidth };
    });

  // My reply quotes the Hebrew message: the quote reads right to left, its bar on the right.
  const quote = mine(page, 'תודה רבה, הכל טוב!').getByRole('button', { name: /^In reply to / });
  await expect(quote).toContainText('שלום! איך אפשר לעזור?');
  expect(await side(quote)).toEqual({ direction: 'rtl', barRight: '3px', barLeft: '0px' });
  expect((await reading(quote.locator('.quote-text'))).direction).toBe('rtl');

  // Answering it again: its quote over the message box reads right to left too.
  const reply = hermes(page, 'שלום! איך אפשר לעזור?');
  await reply.hover();
  await reply.getByRole('button', { name: 'Reply' }).click();
  await expect(page.getByText('Replying to Iris demo agent')).toBeVisible();
  expect((await reading(page.locator('.composer-reply-quote'))).direction).toBe('rtl');
  await page.getByRole('button', { name: 'Cancel reply' }).click();

  // The reasoning, opened from its line: its bar on the right as well.
  await reply.getByRole('button', { name: 'Thought process' }).click();
  const reasoning = reply.locator('.reasoning');
  await expect(reasoning).toContainText('המשתמש אמר שלום');
  expect(await side(reasoning)).toEqual({ direction: 'rtl', barRight: '3px', barLeft: '0px' });

  // A question asked in Hebrew: its title and its options read right to left; the app's own "Not now" not.
  speak({
    type: 'picker.choice',
    payload: {
      picker_id: 'he-1',
      title: 'באיזו שפה לענות?',
      choices: [
        { value: 'he', label: 'עברית, בבקשה' },
        { value: 'en', label: 'English' },
      ],
    },
  });
  const dialog = page.getByRole('dialog', { name: 'באיזו שפה לענות?' });
  await expect(dialog).toBeVisible();
  expect((await reading(dialog.getByRole('heading'))).direction).toBe('rtl');
  expect((await side(dialog.getByRole('button', { name: 'עברית, בבקשה' }))).direction).toBe('rtl');
  expect((await side(dialog.getByRole('button', { name: 'English' }))).direction).toBe('ltr');
  expect((await side(dialog.getByRole('button', { name: 'Not now' }))).direction).toBe('ltr');
  await dialog.getByRole('button', { name: 'Not now' }).click();

  // Found by search, my Hebrew message reads right to left, "You:" whole at its start (on the right).
  await page.goto(`${iris.baseURL}/#/search`);
  await page.getByRole('searchbox', { name: 'Search messages' }).fill('תודה');
  const snippet = page.locator('.search-hit-snippet', { hasText: 'תודה' });
  await expect(snippet).toBeVisible();
  expect((await side(snippet)).direction).toBe('rtl');
  const [you, hit] = await Promise.all([
    snippet.locator('.search-hit-role').boundingBox(),
    snippet.locator('mark').boundingBox(),
  ]);
  expect(you!.x).toBeGreaterThan(hit!.x);
  await expect(snippet.locator('.search-hit-role')).toHaveText('You:');

  // The channel list's preview of that lane (my Hebrew message) as well: cut at its end, "You:" at its start.
  await openLane(page, iris);
  const preview = page.locator('.channel-preview', { hasText: 'תודה' });
  await expect(preview).toHaveText('You: תודה רבה, הכל טוב!');
  // Read right to left: its first letter ("You:"'s Y) is drawn right of its last (the Hebrew's end).
  expect((await side(preview)).direction).toBe('rtl');
  expect((await reading(preview)).direction).toBe('rtl');
});

/** How many of the lane's messages this browser has stored. */
async function storedInLane(page: Page, lane = LANE): Promise<number> {
  return (await storeRows<{ lane: string }>(page, 'messages')).filter((m) => m.lane === lane).length;
}

/** 400 messages of varied heights in the lane, paired and opened at the newest; their ids, oldest first. */
async function openSeededLane(page: Page, iris: IrisServer): Promise<string[]> {
  const ids = seedLongLane(iris, 400, { variedHeights: true });
  await pairAndOpen(page, iris);
  await expect(hermes(page, 'Message number 400')).toBeInViewport();
  return ids;
}

/**
 * The first message at least partly inside the scroller: its text and its top, relative to the scroller;
 * undefined while the list has not drawn the rows there yet, or drew them as empty placeholders (their
 * stored rows not read yet), as right after a jump. The first article alone was then one below the
 * screen, left from before the jump, and it held still too.
 */
function firstVisible(page: Page) {
  return page.evaluate(() => {
    const scroller = document.querySelector('[role="log"]')!;
    const { top, bottom } = scroller.getBoundingClientRect();
    const rows = [...scroller.querySelectorAll('.vrow')]
      .map((row) => ({ row, box: row.getBoundingClientRect() }))
      .filter(({ box }) => box.bottom > top + 1 && box.top < bottom)
      .sort((a, b) => a.box.top - b.box.top);
    const article = rows[0]?.row.querySelector('article');
    if (!article) return undefined;
    return { text: article.querySelector('.md')?.textContent ?? '', y: article.getBoundingClientRect().top - top };
  });
}

/**
 * Watches every frame: a message on screen in two consecutive frames
 * must not move (the reader does not scroll meanwhile). Resolves with the largest move seen and the
 * first message on screen in the first and the last frame.
 */
async function watchFrames(page: Page, frames = 60) {
  return page.evaluate((frames) => {
    const scroller = document.querySelector<HTMLElement>('[role="log"]')!;
    const sample = () => {
      const top = scroller.getBoundingClientRect().top;
      const bottom = scroller.getBoundingClientRect().bottom;
      const seen = new Map<string, number>();
      for (const el of scroller.querySelectorAll('article')) {
        const box = el.getBoundingClientRect();
        if (box.bottom > top && box.top < bottom) seen.set(el.querySelector('.md')?.textContent ?? '', box.top - top);
      }
      return seen;
    };
    return new Promise<{ maxShift: number; first: string; last: string; scrollTop: number }>((resolve) => {
      let previous: Map<string, number> | undefined;
      let first = '';
      let maxShift = 0;
      let count = 0;
      const tick = () => {
        const current = sample();
        if (!previous) first = [...current.keys()][0] ?? '';
        else
          for (const [text, y] of current)
            if (previous.has(text)) maxShift = Math.max(maxShift, Math.abs(y - previous.get(text)!));
        previous = current;
        if (++count < frames) requestAnimationFrame(tick);
        else resolve({ maxShift, first, last: [...current.keys()][0] ?? '', scrollTop: scroller.scrollTop });
      };
      requestAnimationFrame(tick);
    });
  }, frames);
}

/** Scrolls up with the mouse wheel, as a person does, until the list is within a screen of its top. */
async function wheelNearTop(page: Page): Promise<void> {
  const box = (await messages(page).boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let i = 0; i < 200; i++) {
    const near = await messages(page).evaluate((el) => el.scrollTop < el.clientHeight);
    if (near) return;
    await page.mouse.wheel(0, -300);
    // The wheel is dispatched, not awaited: the next look once the page has painted its scroll.
    await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
  }
  throw new Error('could not get near the top');
}

test('a 2,000-message lane opens at the newest message and loads older pages without jumping', async ({
  page,
  iris,
}) => {
  seedLongLane(iris, 2000, { variedHeights: true });
  // History pages take a moment to arrive, so the reader has stopped scrolling when one lands.
  await routeGateway(page, { historyDelayMs: 400 });
  await pairAndOpen(page, iris);
  await expect(hermes(page, 'Message number 2000')).toBeInViewport();
  await expect(mine(page, 'Message number 1999')).toBeInViewport();
  // Virtualized: only about a screenful of rows exists in the DOM.
  expect(await messages(page).getByRole('article').count()).toBeLessThan(60);

  for (let round = 1; round <= 3; round++) {
    const before = await storedInLane(page);
    await wheelNearTop(page);
    await expect(page.getByText('Loading older messages…')).toBeVisible();
    const watched = await watchFrames(page);
    await expect(page.getByText('Loading older messages…')).toBeHidden();
    // The message the reader was looking at stays where it was while a page lands above it.
    expect(watched.maxShift).toBeLessThan(4);
    expect(watched.last).toBe(watched.first);
    expect(watched.scrollTop).toBeGreaterThan(2000);
    // Whole pages of 50 per trip to the top (on a stalled main thread the reader may still be at the top
    // when the first lands, and a second page is then right).
    const added = (await storedInLane(page)) - before;
    expect(added).toBeGreaterThanOrEqual(50);
    expect(added % 50).toBe(0);
  }
  // The older pages are really there: at the top is the oldest loaded message, number 1801.
  await messages(page).evaluate((el) => (el.scrollTop = 0));
  await expect(mine(page, 'Message number 1801')).toBeInViewport();
});

test('a lane with answered questions and long replies reopens at its newest message, every time', async ({
  page,
  iris,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 412, height: 915 });
  await pairAndOpen(page, iris);
  const answer = async (command: string, title: string, choice: string) => {
    await sendMessage(page, command);
    await page.getByRole('dialog', { name: title }).getByRole('button', { name: choice, exact: true }).click();
  };
  await answer('/choose', 'Reasoning effort', 'Low');
  await expect(hermes(page, 'Reasoning effort set to')).toBeVisible();
  await answer('/confirm', 'Archive old messages?', 'Yes');
  // Long replies (taller than their rows' first guess) from another device, each whole before the next.
  const other = await otherDevice(iris);
  for (const text of ['/long', 'hi', '/long']) await other.chat(text, { chat_id: LANE });
  await other.close();
  // Reopened, the list must stay at its end: the rows above it measured on the way had moved the view
  // up, step by step, which let go of the bottom (the "Jump to latest" button shown, the reply out of view).
  for (let reload = 1; reload <= 5; reload++) {
    await page.reload();
    await expect(messages(page).getByRole('article').last()).toBeInViewport();
    await settled(page);
    await page.waitForTimeout(500); // every row on screen measured, and any late move made
    const { top, end } = await messages(page).evaluate((el) => ({
      top: el.scrollTop,
      end: el.scrollHeight - el.clientHeight,
    }));
    expect(end - top, `reload ${reload}: at the end`).toBeLessThan(2);
    await expect(page.getByRole('button', { name: /Jump to latest|New messages/ })).toHaveCount(0);
  }
});

test('a search result opens the lane at that old message, highlighted, loading pages as needed', async ({
  page,
  iris,
}) => {
  const ids = await openSeededLane(page, iris);
  await openLane(page, iris, LANE, `?m=${encodeURIComponent(ids[19]!)}`);
  const target = messages(page)
    .getByRole('article', { name: /^Iris demo agent, / })
    .filter({ has: page.getByText('Message number 20', { exact: true }) });
  await expect(target).toBeInViewport({ timeout: 20_000 });
  await expect(target).toBeFocused();
  await expect(target).toHaveClass(/is-target/);
});

test('a message jumped to keeps keyboard focus as an older page lands above it, and a second jump right after takes over', async ({
  page,
  iris,
}) => {
  const ids = await openSeededLane(page, iris);
  const row = (n: number) =>
    messages(page)
      .getByRole('article')
      .filter({ has: page.getByText(`Message number ${n}`, { exact: true }) });
  const jump = (index: number) =>
    page.evaluate(
      (hash) => (location.hash = hash),
      `#/c/${encodeURIComponent(LANE)}?m=${encodeURIComponent(ids[index]!)}`,
    );
  // Message 370 is in the pages the lane opened with; 340 is the first of the next, and once placed, the
  // page before it loads above it. Jumps come from the address (another link, a notification).
  await jump(369);
  await expect(row(370)).toBeFocused();
  const before = await storedInLane(page);
  await jump(339);
  await expect(row(340)).toBeFocused();
  await expect.poll(() => storedInLane(page), { timeout: 20_000 }).toBeGreaterThan(before);
  await page.waitForTimeout(2000); // every centring over
  // The older page landed and both jumps' centring is over: the second message still has the focus (a
  // screen reader or a keyboard reads on from it), in view, without the actions a tap would show.
  await expect(row(340)).toBeFocused();
  await expect(row(340)).toBeInViewport();
  await expect(row(340).getByRole('group', { name: 'Message actions' })).toBeHidden();
  await expect(row(370)).not.toBeInViewport();
});

test('"the beginning of the conversation" shows only once the true beginning is loaded, not above a gap of older messages', async ({
  page,
  iris,
}) => {
  const store = gatewayStore(iris);
  const start = Date.now() - 200 * 60_000;
  const say = (from: number, to: number) => {
    for (let i = from; i <= to; i++)
      store.conversations.append({
        lane: LANE,
        role: i % 2 ? 'user' : 'assistant',
        text: `Message number ${i}`,
        ts: start + i * 60_000,
      });
    store.flush();
  };
  const beginning = page.getByText('This is the beginning of the conversation.');
  say(1, 2);
  await pairAndOpen(page, iris);
  await expect(beginning).toBeVisible();
  // Away from the app, 120 more messages come, more than a replay brings back.
  await page.goto('about:blank');
  say(3, 122);
  await openLane(page, iris);
  await expect(hermes(page, 'Message number 122')).toBeInViewport();
  // Up at the top, older pages load until every message is there; only then the line says it is the beginning.
  await expect
    .poll(
      async () => {
        await wheelNearTop(page);
        await messages(page).evaluate((el) => (el.scrollTop = 0));
        // The mounted rows by their place in the list: a message's text, or null for a row still loading its
        // message. By place, not by order in the page: while the list scrolls, rows of the old and the new
        // window can be mounted together (places 0, 1 and 22, 23 are not a gap).
        // Read together, in one look: read apart, a page could land between the rows and the line (the
        // rows before it, the line after it: 2 runs in 30 failed on a gap that was already gone).
        const { shown, atStart } = await messages(page).evaluate((log) => ({
          shown: [...log.querySelectorAll('.vrow')].map(
            (row) =>
              [
                Number(row.getAttribute('data-index')),
                row.querySelector('article .md')?.textContent?.trim() ?? null,
              ] as const,
          ),
          atStart: (log.textContent ?? '').includes('This is the beginning of the conversation.'),
        }));
        // Never "the beginning" above a missing stretch: the first places hold messages 1, 2, 3, 4.
        if (atStart)
          for (const [place, text] of shown)
            if (place < 4 && text !== null) expect(text).toBe(`Message number ${place + 1}`);
        return atStart;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  await expect(beginning).toBeInViewport();
});

test('a reply arriving while I read older messages shows a pill instead of moving the page', async ({ page, iris }) => {
  seedLongLane(iris, 120, { variedHeights: true });
  await pairAndOpen(page, iris);
  await expect(hermes(page, 'Message number 120')).toBeInViewport();
  const log = messages(page);
  await log.evaluate((el) => (el.scrollTop = el.scrollHeight / 2));
  // The virtualized rows there have rendered once the first one on screen holds still between two looks.
  let before = await firstVisible(page);
  await expect
    .poll(async () => {
      const now = await firstVisible(page);
      const still = now !== undefined && JSON.stringify(now) === JSON.stringify(before);
      before = now;
      return still;
    })
    .toBe(true);
  const other = await otherDevice(iris);
  await other.chat('news from my phone', { chat_id: LANE });
  const pill = page.getByRole('button', { name: /New messages/ });
  await expect(pill).toBeVisible();
  const after = await firstVisible(page);
  expect(after?.text).toBe(before?.text);
  expect(Math.abs(after!.y - before!.y)).toBeLessThan(4);
  await pill.click();
  await expect(hermes(page, 'Echo: news from my phone')).toBeInViewport();
  await expect(pill).toBeHidden();
  await other.close();
});

test('look: a lane with code, a table, tools and reasoning (screenshots)', async ({ page, iris }) => {
  const store = gatewayStore(iris);
  const now = Date.now();
  store.conversations.append({
    lane: LANE,
    role: 'user',
    text: 'How do I read a file in TypeScript?',
    ts: now - 2 * DAY,
  });
  store.conversations.append({
    lane: LANE,
    role: 'assistant',
    text:
      'Use `readFile` from `node:fs/promises`:\n\n```ts\nimport { readFile } from "node:fs/promises";\n\nconst text = await readFile("notes.txt", "utf8");\nconsole.log(text.length); // characters\n```\n\n' +
      '| Function | Returns |\n| --- | --- |\n| `readFile` | `Promise<Buffer>` |\n| `readFileSync` | `Buffer` |\n\nSee [the docs](https://nodejs.org/api/fs.html).',
    reasoning: 'They want a short example. Mention the promise API and the sync one in a table.',
    model: 'demo-1',
    tokens: 812,
    ts: now - 2 * DAY + 60_000,
  });
  store.conversations.append({ lane: LANE, role: 'cron', text: 'Stand-up in 5 minutes', ts: now - DAY });
  await page.setViewportSize({ width: 390, height: 844 });
  await pairAndOpen(page, iris);
  const other = await otherDevice(iris);
  await other.chat('Please count these words for me', { chat_id: LANE });
  // By the reply's own words: every reply's header now carries the agent's name.
  await expect(hermes(page, 'Echo: Please count these words for me')).toBeInViewport();
  await expect(page.locator('code[data-highlighted="yes"]').first()).toBeAttached();
  for (const [name, size] of [
    ['phone', { width: 390, height: 844 }],
    ['desktop', { width: 1280, height: 800 }],
  ] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      await settled(page);
      await page.screenshot({ path: `test-results/lane-${name}-${scheme}.png` });
    }
  }
  await other.close();
});

test('tool activity before any reply text shows at the end of the lane, with a running timer', async ({
  page,
  iris,
}) => {
  const speak = await speakForGateway(page);
  await pairAndOpen(page, iris);
  speak({ type: 'agent.busy', payload: { reason: 'tool' } });
  speak({
    type: 'tool.start',
    payload: {
      index: 0,
      name: 'web_search',
      preview: 'web_search("solid virtual lists")',
      args: { q: 'solid virtual lists' },
    },
  });
  speak({ type: 'tool.progress', payload: { index: 0, name: 'web_search', note: 'fetching 3 pages' } });
  const working = messages(page).getByRole('article', { name: 'Iris demo agent, working' });
  // One live line; opened, the card with its timer and notes.
  const line = working.getByRole('button', { name: 'Running web_search…' });
  await line.click();
  const card = working.getByRole('group', { name: 'Tool web_search' });
  await expect(card).toContainText('Running');
  await expect(card).toContainText('fetching 3 pages');
  // The lane's end says what runs; the line above the composer does not say it a second time.
  await expect(page.getByRole('status').filter({ hasText: /Iris demo agent is/ })).toHaveCount(0);
  const timer = card.locator('.tool-timer');
  const first = await timer.textContent();
  await expect(timer).not.toHaveText(first!);
  speak({
    type: 'tool.end',
    payload: { index: 0, name: 'web_search', ok: false, duration: 2.5, output_preview: 'timed out' },
  });
  await expect(card).toContainText('Failed');
  await expect(card).toContainText('2.5 s');
  await expect(working.getByRole('button', { name: 'Used 1 tool · 1 failed · 2.5 s' })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  await card.getByRole('button', { name: 'Show output' }).click();
  await expect(card).toContainText('timed out');
  speak({ type: 'message.start', payload: { message_id: 'live-reply', role: 'assistant' } });
  speak({
    type: 'message.update',
    payload: { message_id: 'live-reply', text: 'The search timed out, so from memory:' },
  });
  const reply = hermes(page, 'The search timed out');
  // The reply starts: the cards move into it, still open.
  await expect(reply.getByRole('group', { name: 'Tool web_search' })).toContainText('Failed');
  await expect(working).toHaveCount(0);
  // A tool that never reports its end…
  speak({ type: 'tool.start', payload: { index: 1, name: 'summarize', preview: 'summarize()' } });
  const unfinished = reply.getByRole('group', { name: 'Tool summarize' });
  await expect(unfinished).toContainText('Running');
  speak({
    type: 'message.stop',
    payload: {
      message_id: 'live-reply',
      final_text: 'The search timed out, so from memory: use a virtualizer.',
      model: 'demo',
      tokens: 12,
    },
  });
  speak({ type: 'agent.idle', payload: {} });
  await expect(reply).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByRole('status').filter({ hasText: /Iris demo agent is/ })).toHaveCount(0);
  // …stops with its turn instead of running forever.
  await expect(unfinished).toContainText('Stopped');
  await expect(unfinished.locator('.tool-timer')).toHaveCount(0);
});

test('the conversation has no serious accessibility problems, in both themes', async ({ page, iris }) => {
  const store = gatewayStore(iris);
  store.conversations.append({ lane: LANE, role: 'cron', text: 'Water the plants', ts: Date.now() - DAY });
  await pairAndOpen(page, iris);
  await sendMessage(page, 'Check the *contrast* please');
  const reply = hermes(page, 'Iris demo agent');
  await expect(reply).toHaveAttribute('aria-busy', 'false');
  await reply.getByRole('button', { name: /^Thought for / }).click();
  await reply.getByRole('button', { name: /^Used 2 tools/ }).click();
  await reply.getByRole('button', { name: 'Details' }).click();
  await reply.getByRole('button', { name: 'Show output' }).first().click();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await reply.hover();
    const results = await new AxeBuilder({ page }).include('.msg-list').include('.thinking').analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }
});

test('a link to a message the lane no longer has says so once every page is loaded', async ({ page, iris }) => {
  seedLongLane(iris, 120);
  await pairAndOpen(page, iris);
  await expect(hermes(page, 'Message number 120')).toBeInViewport();
  await openLane(page, iris, LANE, '?m=a-deleted-message');
  await expect(
    page.getByRole('alert').filter({ hasText: 'That message is no longer in this conversation.' }),
  ).toBeVisible({
    timeout: 20_000,
  });
  // It was looked for through every older page first: the list holds the first message.
  await expect(page.getByText('This is the beginning of the conversation.')).toBeAttached();
});
