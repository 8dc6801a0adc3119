// What the first screen of a new visitor downloads: the pairing page arrives with the entry (preloaded
// by index.html, not fetched after the entry has run), compressed, and none of the paired app's code
// (the app frame, the lane, the markdown pipeline, settings, the gateway session) comes with it; and a
// paired browser does not download the pairing page.
import type { Page } from '@playwright/test';
import {
  DESKTOP,
  LANE,
  PHONE,
  channelLink,
  demoGateway,
  expect,
  hermes,
  pageTitle,
  pairAndOpen,
  seedLongLane,
  sendMessage,
  speakForGateway,
  test,
} from './support';

test('the pairing screen loads only its own code, compressed, in one round trip', async ({ page, iris }) => {
  const scripts: { url: string; encoding: string | undefined; text: Promise<string> }[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script')
      scripts.push({
        url: response.url(),
        encoding: response.headers()['content-encoding'],
        text: response.text().catch(() => ''),
      });
  });
  await page.goto(`${iris.baseURL}/#/pair`);
  await expect(page.getByRole('button', { name: 'Connect' })).toBeVisible();
  await page.waitForLoadState('networkidle');

  const names = scripts.map((s) => new URL(s.url).pathname.replace(/^\/assets\//, '').replace(/-[\w-]{8}\.js$/, ''));
  expect(names).toContain('PairPage');
  // None of a paired browser's code: its frame, lane, session…, nor the dialog that asks before a pairing
  // link replaces its pairing (a new visitor has none to replace).
  for (const paired of ['Shell', 'LanePage', 'markdown', 'core', 'SettingsPage', 'session', 'reducer', 'bridge'])
    expect(names).not.toContain(paired);
  for (const script of scripts) {
    const text = await script.text;
    expect(text, script.url).not.toContain('Keep current pairing');
    expect(text, script.url).not.toContain('modal-title'); // the modal dialog's own code
  }
  for (const script of scripts) expect(script.encoding, script.url).toBe('br');

  // index.html's preload script lists the pairing chunk and its CSS, and (in a browser not paired) preloads
  // them, so they are fetched alongside the entry rather than one round trip after it has run.
  const html = await (await page.request.get(`${iris.baseURL}/`)).text();
  const pairingChunk = new URL(scripts.find((s) => /\/PairPage-[\w-]+\.js$/.test(s.url))!.url).pathname;
  expect(html).toMatch(new RegExp(`<script src="/pair-preload\\.js" data-modules="[^"]*${pairingChunk}[^"]*"`));
  expect(html).toMatch(/data-styles="[^"]*\/assets\/PairPage-[\w-]+\.css[^"]*"/);
  await expect(page.locator(`head link[rel=modulepreload][href="${pairingChunk}"]`)).toHaveCount(1);
  await expect(page.locator('head link[rel=preload][as=style][href*="/assets/PairPage-"]')).toHaveCount(1);
});

// Chromium's preload scanner is off in a page with a CSP <meta> (index.html has one), so what the parser
// has not reached when it stops for a blocking script is requested only once that script has arrived.
test('index.html asks for the entry and its styles before any script that blocks the parser', async ({
  page,
  iris,
}) => {
  const html = await (await page.request.get(`${iris.baseURL}/`)).text();
  const head = html.slice(0, html.indexOf('</head>'));
  const tags = [...head.matchAll(/<(script|link)\b[^>]*>/g)].map((m) => m[0]);
  const blocking = tags.findIndex((t) => t.startsWith('<script') && !/\s(type="module"|async|defer)[\s>]/.test(t));
  expect(blocking, 'a blocking script in <head>').toBeGreaterThan(-1);
  const needed = tags.filter((t) => /type="module"|rel="stylesheet"/.test(t));
  expect(needed.map((t) => /src="\/assets\/([a-z]+)-/i.exec(t)?.[1] ?? 'css')).toEqual(['index', 'css']);
  for (const tag of needed) expect(tags.indexOf(tag), tag).toBeLessThan(blocking);
  expect(tags.find((t) => t.includes('/pair-preload.js'))).toMatch(/\basync\b/);
});

test.describe('a paired browser', () => {
  // The service worker would answer the requests itself: each one is to be seen here.
  test.use({ serviceWorkers: 'block' });

  test('opening the app again does not download the pairing page', async ({ page, iris }) => {
    await pairAndOpen(page, iris);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.reload();
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(scripts.some((p) => /\/LanePage-[\w-]+\.js$/.test(p))).toBe(true);
    expect(scripts.filter((p) => /\/PairPage-[\w-]+\.js$/.test(p))).toEqual([]);
    await expect(page.locator('head link[href*="/assets/PairPage-"]')).toHaveCount(0);
  });
});

/** Holds the requests for the chunk named `name` (its hashed file) until the returned function is called. */
async function holdChunk(page: Page, name: string): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(new RegExp(`/assets/${name}-[\\w-]+\\.js$`), async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** The top and height of each of `selector` in `root` that shows (below the top bar), top to bottom. */
function boxesIn(page: Page, root: string, selector: string): Promise<number[][]> {
  return page.locator(root).evaluate(
    (node, parts) =>
      [...node.querySelectorAll(parts)]
        .map((m) => m.getBoundingClientRect())
        .filter((box) => box.bottom > 56 && box.height > 0)
        .map((box) => [box.top, box.height]),
    selector,
  );
}

/** Within a pixel or two (the head lays text out without the lane's subpixel rounding). */
function sameBoxes(a: number[][], b: number[][]): boolean {
  return a.length === b.length && a.every((box, i) => box.every((v, j) => Math.abs(v - b[i]![j]!) <= 2));
}

/**
 * Reloads the lane with its code and the media's held back, and checks that every message on screen, and
 * every attachment (`parts.head` in the head, `parts.lane` in the lane), stays where the head drew it: in
 * the lane while the media's code loads, and once it has (`parts.loaded`). Returns the head's attachments.
 */
async function expectStillThroughLoad(
  page: Page,
  shot: string,
  parts: { head: string; lane: string; loaded: () => Promise<void> },
): Promise<number[][]> {
  const releaseLane = await holdChunk(page, 'LanePage');
  const releaseMedia = await holdChunk(page, 'MediaView');
  await page.reload();
  const head = page.getByRole('main', { name: 'Conversation (loading)' });
  await expect(head).toBeVisible();
  const headMessages = await boxesIn(page, '.lane-head-list', '.lane-head-msg');
  const headParts = await boxesIn(page, '.lane-head-list', parts.head);
  await page.screenshot({ path: `/tmp/look/${shot}-head.png` });
  releaseLane();
  await expect(head).toHaveCount(0);
  const log = '[role="log"][aria-label="Messages"]';
  await expect(page.locator(`${log} strong`).first()).toBeVisible(); // the Markdown is in
  await expect(page.locator(`${log} .media`)).toHaveCount(0); // the media's code is still held back
  for (const stage of ['loading', 'loaded']) {
    if (stage === 'loaded') {
      releaseMedia();
      await parts.loaded();
    }
    const messages = await boxesIn(page, log, 'article.msg');
    const attachments = await boxesIn(page, log, parts.lane);
    await page.screenshot({ path: `/tmp/look/${shot}-${stage}.png` });
    expect(sameBoxes(messages, headMessages), `${stage}: ${messages}, head ${headMessages}`).toBe(true);
    expect(sameBoxes(attachments, headParts), `${stage}: ${attachments}, head ${headParts}`).toBe(true);
  }
  return headParts;
}

test.describe('a lane opened at start', () => {
  // The service worker would answer the chunk requests itself, past the route that holds one back.
  test.use({ serviceWorkers: 'block' });

  test('shows its newest messages as text, Markdown’s marks taken off and bold drawn bold, before the lane code and the Markdown pipeline arrive', async ({
    page,
    iris,
  }) => {
    const newest = 'Newest **in bold** <img src="/x" onerror="window.headXss=1">';
    // What a reader sees before the pipeline: the text, without the marks ("**Echo:**" flashed as typed).
    const plain = 'Newest in bold <img src="/x" onerror="window.headXss=1">';
    const gateway = demoGateway(iris);
    gateway.store.conversations.append({ lane: LANE, role: 'assistant', text: newest, ts: Date.now() });
    gateway.store.flush();
    await pairAndOpen(page, iris);
    await expect(hermes(page, 'Newest in bold')).toBeVisible();

    // Opened again (a reload) with the lane's own code and the Markdown pipeline held back: the head shows
    // it meanwhile, then the lane before its pipeline.
    const lane = await holdChunk(page, 'LanePage');
    const markdown = await holdChunk(page, 'markdown');
    await page.reload();
    const head = page.getByRole('main', { name: 'Conversation (loading)' });
    await expect(head.getByText(plain, { exact: true })).toBeVisible();
    // Its bold drawn bold, as the lane will (its width): made from the text, the gateway's <img> stays words.
    await expect(head.locator('strong')).toHaveText('in bold');
    await expect(head.locator('img')).toHaveCount(0);
    expect(await page.evaluate(() => 'headXss' in window)).toBe(false);

    lane();
    await expect(head).toHaveCount(0);
    const reply = hermes(page, 'Newest in bold');
    await expect(reply.getByText(plain, { exact: true })).toBeVisible();
    await expect(reply.locator('.md strong, .md img')).toHaveCount(0);

    // Then the pipeline renders it (sanitized: the image's handler is gone).
    markdown();
    await expect(reply.locator('strong', { hasText: 'in bold' })).toBeVisible();
    expect(await page.evaluate(() => 'headXss' in window)).toBe(false);
  });

  test('draws links as the lane does, in the agent’s text and in the person’s bubble, dark and light', async ({
    page,
    iris,
  }) => {
    const store = demoGateway(iris).store;
    const start = Date.now() - 60_000;
    store.conversations.append({ lane: LANE, role: 'user', text: 'Is https://example.org up?', ts: start });
    store.conversations.append({
      lane: LANE,
      role: 'assistant',
      text: 'It is: see [its status page](https://example.org/status).',
      ts: start + 1_000,
    });
    store.flush();
    await pairAndOpen(page, iris);
    await expect(hermes(page, 'It is: see')).toBeVisible();
    /** Colour and underline of each link, the person's first (as in the lane, top to bottom). */
    const looks = (selector: string) =>
      page.locator(selector).evaluateAll((links) =>
        links.map((a) => {
          const style = getComputedStyle(a);
          return [a.textContent, style.color, style.textDecorationLine];
        }),
      );
    for (const scheme of ['dark', 'light'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const lane = await holdChunk(page, 'LanePage');
      await page.reload();
      const head = page.getByRole('main', { name: 'Conversation (loading)' });
      await expect(head.getByText('its status page')).toBeVisible();
      const inHead = await looks('.lane-head-link');
      lane();
      await expect(head).toHaveCount(0);
      await expect(hermes(page, 'It is: see').locator('a')).toHaveText('its status page');
      const inLane = await looks('[role="log"] a[href]');
      expect(inHead, scheme).toEqual(inLane);
      expect(inHead.map(([text]) => text)).toEqual(['https://example.org', 'its status page']);
    }
  });

  // A lane of few messages that are long (a /help, a pasted text) is taller than the screen: the lane
  // opens at its end, so the head must too, or the first screen jumps from the oldest to the newest.
  test('of few but long messages shows its newest at the bottom, as the lane will', async ({ page, iris }) => {
    const store = demoGateway(iris).store;
    const start = Date.now() - 10 * 60_000;
    const paragraph = 'A long paragraph that wraps over many lines on a phone, as a help text would. '.repeat(8);
    for (let i = 1; i <= 4; i++)
      store.conversations.append({
        lane: LANE,
        role: i % 2 ? 'user' : 'assistant',
        text: `Long message ${i}\n\n${paragraph}\n\n${paragraph}\n\nEnd of long message ${i}`,
        ts: start + i * 60_000,
      });
    store.flush();
    await page.setViewportSize(PHONE);
    await pairAndOpen(page, iris);
    await expect(page.getByText('End of long message 4')).toBeInViewport();

    const release = await holdChunk(page, 'LanePage');
    await page.reload();
    const head = page.getByRole('main', { name: 'Conversation (loading)' });
    await expect(head).toBeVisible();
    // The newest message ends at the list's bottom (above the composer), as the lane's end does.
    const newestEnd = await head.evaluate((main) => {
      const list = main.querySelector('.lane-head-list')!.getBoundingClientRect();
      const newest = main.querySelector('.lane-head-msg:last-child')!;
      return { text: newest.textContent, gap: list.bottom - newest.getBoundingClientRect().bottom };
    });
    expect(newestEnd.text).toContain('End of long message 4');
    expect(newestEnd.gap).toBeGreaterThanOrEqual(0);
    expect(newestEnd.gap).toBeLessThan(40);
    release();
    await expect(head).toHaveCount(0);
    await expect(page.getByText('End of long message 4')).toBeInViewport();
  });

  test('whose newest reply is longer than the screen shows its last paragraphs where the lane then shows them', async ({
    page,
    iris,
  }) => {
    const store = demoGateway(iris).store;
    const paragraphs = Array.from(
      { length: 30 },
      (_, i) => `Paragraph ${i + 1}: ${'some words of a long answer '.repeat(6)}`,
    );
    store.conversations.append({ lane: LANE, role: 'user', text: 'Tell me a lot.', ts: Date.now() - 120_000 });
    store.conversations.append({
      lane: LANE,
      role: 'assistant',
      text: paragraphs.join('\n\n'),
      ts: Date.now() - 60_000,
    });
    store.flush();
    await page.setViewportSize(PHONE);
    await pairAndOpen(page, iris);
    await expect(page.getByText(/^Paragraph 30:/)).toBeInViewport();

    /** The paragraphs on screen under `root` (below the top bar, above the composer): their number and top. */
    const onScreen = (root: string, selector: string) =>
      page.locator(root).evaluate(
        (node, parts) =>
          [...node.querySelectorAll(parts)]
            .map((p) => ({ box: p.getBoundingClientRect(), label: /^Paragraph \d+/.exec(p.textContent ?? '')?.[0] }))
            .filter(({ box }) => box.bottom > 56 && box.top < innerHeight - 80 && box.height > 0)
            .map(({ box, label }) => `${label} @ ${Math.round(box.top)}`),
        selector,
      );
    const release = await holdChunk(page, 'LanePage');
    await page.reload();
    const head = page.getByRole('main', { name: 'Conversation (loading)' });
    await expect(head).toBeVisible();
    const inHead = await onScreen('.lane-head-list', '.lane-head-p');
    expect(inHead.at(-1)).toMatch(/^Paragraph 30 @/);
    release();
    await expect(head).toHaveCount(0);
    await expect(page.getByText(/^Paragraph 30:/)).toBeInViewport();
    const inLane = await onScreen('[role="log"]', '.md p');
    // The same paragraphs, each within two pixels of where the head drew it.
    expect(inLane.map((s) => s.split(' @ ')[0])).toEqual(inHead.map((s) => s.split(' @ ')[0]));
    inLane.forEach((s, i) =>
      expect(
        Math.abs(Number(s.split(' @ ')[1]) - Number(inHead[i]!.split(' @ ')[1])),
        `${s} / ${inHead[i]}`,
      ).toBeLessThanOrEqual(2),
    );
  });

  test('whose newest reply is a long code block, shown collapsed, draws the messages above it where the lane does', async ({
    page,
    iris,
  }) => {
    const store = demoGateway(iris).store;
    const file = Array.from({ length: 300 }, (_, i) => `export const value${i} = compute(${i}, "item-${i}");`);
    const texts = [
      'First question.',
      'A first answer.',
      'Send me the file.',
      `Here:\n\n\`\`\`ts\n${file.join('\n')}\n\`\`\``,
    ];
    texts.forEach((text, i) =>
      store.conversations.append({
        lane: LANE,
        role: i % 2 ? 'assistant' : 'user',
        text,
        ts: Date.now() - (5 - i) * 60_000,
      }),
    );
    store.flush();
    await page.setViewportSize(PHONE);
    await pairAndOpen(page, iris);
    await expect(page.getByRole('button', { name: 'Show all 300 lines' })).toBeInViewport();

    const release = await holdChunk(page, 'LanePage');
    await page.reload();
    const head = page.getByRole('main', { name: 'Conversation (loading)' });
    await expect(head).toBeVisible();
    const inHead = await boxesIn(page, '.lane-head-list', '.lane-head-msg');
    release();
    await expect(head).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Show all 300 lines' })).toBeInViewport();
    const inLane = await boxesIn(page, '[role="log"][aria-label="Messages"]', 'article.msg');
    // Weighed by its whole text, the reply alone was drawn, at the top; the lane has it at the bottom.
    expect(inHead.length).toBeGreaterThan(1);
    expect(sameBoxes(inLane, inHead), `lane ${inLane}, head ${inHead}`).toBe(true);
  });
});

// The head lays a message out as the lane will (paragraphs, a list, a code box, a pasted text's preview,
// the turn line of a reply with reasoning): when the lane replaces it, what is on screen stays where it was.
/**
 * A time `minutes` ago, or the local midnight if that was yesterday: "today's" messages of a test run
 * just after midnight must still be today's (the browser has the host's time zone).
 */
function earlierToday(minutes: number): number {
  const now = Date.now();
  return Math.max(now - minutes * 60_000, new Date(now).setHours(0, 0, 0, 0));
}

for (const [name, viewport] of [
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const) {
  test.describe(`a lane opened at start (${name})`, () => {
    test.use({ serviceWorkers: 'block', viewport });

    test('keeps its messages where the head drew them when the lane takes over', async ({ page, iris }) => {
      const store = demoGateway(iris).store;
      // Yesterday's conversation, then a reply today: the day's line between them is drawn by both.
      const start = Date.now() - 24 * 3_600_000 - 10 * 60_000;
      const paste = Array.from({ length: 60 }, (_, i) => `console.log('line ${i + 1}');`).join('\n');
      const texts: [role: 'user' | 'assistant', text: string, reasoning?: string, stopped?: true][] = [
        ['user', `Look at this:\n\`\`\`js\n${paste}\n\`\`\``],
        [
          'assistant',
          '**Echo:** your code logs sixty lines.\n\nWhat it does:\n- counts\n\n- logs each line\n\n```js\nconsole.log(1);\nconsole.log(2);\n```\n\n## Next\n\n> A quote to keep.\n\n— Iris demo agent',
          'The person pasted a script.',
        ],
        ['user', 'Thanks, and one more question about the plan for tomorrow morning?'],
        // Bold is wider than plain text: drawn plain, this paragraph took a line less in the head.
        [
          'assistant',
          `**${'Bold words the head must draw as wide as the lane does. '.repeat(9).trim()}** Then \`code\` too.`,
        ],
        [
          'assistant',
          'Sure.\n\n1. First the standup\n   - with the team\n   - short\n2. Then the review\n\n| Step | Time |\n| --- | ---: |\n| standup | 9:00 |\n| review | 11:00 |\n\nThat is all.',
          'Short plan.',
        ],
        // Stopped (on some device): the line under it is drawn by both.
        ['assistant', 'Let me think about the whole week first, starting', undefined, true],
      ];
      texts.forEach(([role, text, reasoning, stopped], i) =>
        store.conversations.append({
          lane: LANE,
          role,
          text,
          ts: start + i * 60_000,
          ...(reasoning ? { reasoning } : {}),
          ...(stopped ? { stopped } : {}),
        }),
      );
      store.flush();
      const speak = await speakForGateway(page);
      await pairAndOpen(page, iris);
      await expect(hermes(page, 'That is all.')).toBeVisible();
      // Then a reply with tools and no reasoning, seen live (history carries no tool activity).
      speak({ type: 'agent.busy', payload: { reason: 'tool' } });
      speak({ type: 'tool.start', payload: { index: 0, name: 'web_search', preview: 'web_search("plan")' } });
      speak({ type: 'tool.end', payload: { index: 0, name: 'web_search', ok: true, duration: 0.4 } });
      speak({
        type: 'message',
        payload: { message_id: 'tool-reply', role: 'assistant', text: 'Found **two** plans.' },
      });
      speak({ type: 'agent.idle', payload: {} });
      await expect(hermes(page, 'Found two plans').getByRole('button', { name: /^Used 1 tool/ })).toBeVisible();

      const release = await holdChunk(page, 'LanePage');
      await page.reload();
      const head = page.getByRole('main', { name: 'Conversation (loading)' });
      await expect(head).toBeVisible();
      // The top of each message the head drew that shows at least in part, newest first.
      const headTops = await head.evaluate((main) =>
        [...main.querySelectorAll('.lane-head-msg')]
          .reverse()
          .map((m) => m.getBoundingClientRect())
          .filter((box) => box.bottom > 56)
          .map((box) => Math.round(box.top)),
      );
      // Where the time under each of the person's messages starts, newest first: beside its ✓✓ in both.
      const headTimes = await head.evaluate((main) =>
        [...main.querySelectorAll('.lane-head-user .lane-head-time')]
          .reverse()
          .map((time) => Math.round(time.getBoundingClientRect().left)),
      );
      await page.screenshot({ path: `/tmp/look/head-${name}.png` });
      release();
      await expect(head).toHaveCount(0);
      await expect(hermes(page, 'That is all.').locator('strong, ol').first()).toBeVisible();
      await expect(hermes(page, 'Found two plans').locator('strong')).toBeVisible();
      await expect(hermes(page, 'logs sixty lines').locator('.md-code')).toBeVisible();
      const laneTops = await page
        .getByRole('log', { name: 'Messages' })
        .evaluate((log) =>
          [...log.querySelectorAll('article.msg')]
            .sort((a, b) => b.getBoundingClientRect().top - a.getBoundingClientRect().top)
            .map((m) => Math.round(m.getBoundingClientRect().top)),
        );
      const laneTimes = await page
        .getByRole('log', { name: 'Messages' })
        .evaluate((log) =>
          [...log.querySelectorAll('article.msg-user .msg-foot time')]
            .sort((a, b) => b.getBoundingClientRect().top - a.getBoundingClientRect().top)
            .map((time) => Math.round(time.getBoundingClientRect().left)),
        );
      await page.screenshot({ path: `/tmp/look/head-to-lane-${name}.png` });
      expect(headTimes.length).toBeGreaterThanOrEqual(1);
      expect(laneTimes.slice(0, headTimes.length), 'the times beside the person’s messages').toEqual(headTimes);
      expect(headTops.length).toBeGreaterThanOrEqual(3);
      // Each message on both screens starts within a few pixels (inline marks, bold and `code`, may wrap a
      // line differently; a missing code box or turn line moved them by 30 px and more).
      const moved = headTops.map((top, i) => Math.abs(top - laneTops[i]!));
      expect(
        moved.every((px) => px <= 6),
        `moved by ${moved.join(', ')} px (head ${headTops}, lane ${laneTops})`,
      ).toBe(true);
    });

    test('draws a short lane’s beginning and its days where the lane draws them', async ({ page, iris }) => {
      const store = demoGateway(iris).store;
      // A few messages, yesterday's and today's: the lane starts with its "beginning" line and a day's line.
      const start = earlierToday(10) - 24 * 3_600_000;
      const texts: [role: 'user' | 'assistant', text: string, at: number][] = [
        ['user', 'Hello from yesterday', 0],
        ['assistant', 'Hi, **yesterday** it was.', 60_000],
        ['user', 'And a question today?', 24 * 3_600_000],
        ['assistant', 'The answer today.', 24 * 3_600_000 + 60_000],
      ];
      texts.forEach(([role, text, at]) => store.conversations.append({ lane: LANE, role, text, ts: start + at }));
      store.flush();
      await pairAndOpen(page, iris);
      await expect(hermes(page, 'The answer today.')).toBeVisible();

      const release = await holdChunk(page, 'LanePage');
      await page.reload();
      const head = page.getByRole('main', { name: 'Conversation (loading)' });
      await expect(head).toBeVisible();
      const lines = '.lane-head-start, .lane-head-day, .lane-head-msg';
      const headWords = await head.locator('.lane-head-start, .lane-head-day').allTextContents();
      const headBoxes = await boxesIn(page, '.lane-head-list', lines);
      await page.screenshot({ path: `/tmp/look/short-head-${name}.png` });
      release();
      await expect(head).toHaveCount(0);
      await expect(hermes(page, 'yesterday it was').locator('strong')).toBeVisible();
      const log = '[role="log"][aria-label="Messages"]';
      const laneWords = await page.locator(`${log} .msg-start span, ${log} .day-sep`).allTextContents();
      const laneBoxes = await boxesIn(page, log, '.msg-start, .day-sep, article.msg');
      await page.screenshot({ path: `/tmp/look/short-lane-${name}.png` });
      expect(headWords).toEqual(['This is the beginning of the conversation.', 'Yesterday', 'Today']);
      expect(laneWords).toEqual(headWords);
      expect(sameBoxes(laneBoxes, headBoxes), `lane ${laneBoxes}, head ${headBoxes}`).toBe(true);
    });

    test('draws the questions the lane keeps where the lane draws them, and each day’s line past them', async ({
      page,
      iris,
    }) => {
      const store = demoGateway(iris).store;
      const before = Date.now() - 48 * 3_600_000 - 10 * 60_000;
      const yesterday = Date.now() - 24 * 3_600_000;
      const today = earlierToday(10);
      const texts: [role: 'user' | 'assistant', text: string, ts: number][] = [
        ['user', 'Deploy it, please.', before],
        ['assistant', 'Deployed.', before + 60_000],
        ['user', 'And archive the logs?', today],
        ['assistant', 'Archived today.', today + 60_000],
      ];
      texts.forEach(([role, text, ts]) => store.conversations.append({ lane: LANE, role, text, ts }));
      store.flush();
      await pairAndOpen(page, iris);
      await expect(hermes(page, 'Archived today.')).toBeVisible();
      // Two questions the app keeps as cards, as its reducer stores them: one answered yesterday, a day
      // with no message (its card starts the day, and the message after it another), one closed today
      // after the last reply.
      await page.evaluate(
        ({ lane, asked }) =>
          new Promise<void>((done, fail) => {
            const open = indexedDB.open('iris');
            open.onerror = () => fail(open.error);
            open.onsuccess = () => {
              const tx = open.result.transaction('pickers', 'readwrite');
              const pickers = tx.objectStore('pickers');
              pickers.put({
                picker_id: 'p-deploy',
                lane,
                type: 'picker.approval',
                payload: { picker_id: 'p-deploy', command: 'make deploy --prod' },
                state: 'answered',
                answer: 'once',
                ts: asked[0],
              });
              pickers.put({
                picker_id: 'p-archive',
                lane,
                type: 'picker.confirm',
                payload: { picker_id: 'p-archive', title: 'Archive old messages?' },
                state: 'closed',
                ts: asked[1],
              });
              tx.oncomplete = () => {
                open.result.close();
                done();
              };
              tx.onerror = () => fail(tx.error);
            };
          }),
        { lane: LANE, asked: [yesterday, today + 120_000] },
      );

      const release = await holdChunk(page, 'LanePage');
      await page.reload();
      const head = page.getByRole('main', { name: 'Conversation (loading)' });
      await expect(head).toBeVisible();
      const headLines = await head.locator('.lane-head-list > li:not(.lane-head-msg)').allTextContents();
      const headBoxes = await boxesIn(page, '.lane-head-list', '.lane-head-list > li');
      await page.screenshot({ path: `/tmp/look/cards-head-${name}.png` });
      release();
      await expect(head).toHaveCount(0);
      const log = '[role="log"][aria-label="Messages"]';
      await expect(page.locator(log).getByRole('note', { name: 'Archive old messages? → Closed' })).toBeVisible();
      const laneLines = await page
        .locator(`${log} .msg-start span, ${log} .day-sep, ${log} .picker-card`)
        .allTextContents();
      const laneBoxes = await boxesIn(page, log, '.msg-start, .day-sep, article.msg, .picker-card');
      await page.screenshot({ path: `/tmp/look/cards-lane-${name}.png` });
      // The day before yesterday is named by its date ("Friday, December 4").
      expect(laneLines[1]).toMatch(/\d/);
      expect(laneLines).toEqual([
        'This is the beginning of the conversation.',
        laneLines[1],
        'Yesterday',
        'Approval: make deploy --prod→Approved once',
        'Today',
        'Archive old messages?→Closed',
      ]);
      expect(headLines).toEqual(laneLines);
      expect(sameBoxes(laneBoxes, headBoxes), `lane ${laneBoxes}, head ${headBoxes}`).toBe(true);
    });

    test('keeps a picture’s place from the head, while its code loads, to the picture', async ({ page, iris }) => {
      await pairAndOpen(page, iris);
      await sendMessage(page, '/image');
      const picture = page.getByRole('button', { name: /^Open picture/ });
      await expect(picture).toBeVisible({ timeout: 30_000 });
      await sendMessage(page, 'thanks, nice');
      // The whole reply, to its sign-off: a reply stored half-way grows when the lane catches up.
      await expect(hermes(page, 'Echo: thanks, nice').getByText('— Iris demo agent')).toBeVisible();
      await expect(hermes(page, 'Echo: thanks, nice')).toHaveAttribute('aria-busy', 'false');
      const pictures = await expectStillThroughLoad(page, `picture-${name}`, {
        head: '.lane-head-picture',
        lane: '.media-image',
        loaded: async () => {
          await expect(picture).toBeVisible();
          await expect(picture.locator('img')).toHaveJSProperty('complete', true);
        },
      });
      // The 64×64 drawing is shown twice its size: its box is there before any code for it.
      expect(pictures.map(([, height]) => Math.round(height!))).toEqual([128]);
    });

    test('keeps the place of a file and a sound from the head, while their code loads, to their chips', async ({
      page,
      iris,
    }) => {
      await pairAndOpen(page, iris);
      const wav = Buffer.alloc(44 + 800);
      wav.write('RIFF', 0);
      wav.writeUInt32LE(36 + 800, 4);
      wav.write('WAVEfmt ', 8);
      wav.writeUInt32LE(16, 16);
      wav.writeUInt16LE(1, 20);
      wav.writeUInt16LE(1, 22);
      wav.writeUInt32LE(8000, 24);
      wav.writeUInt32LE(8000, 28);
      wav.writeUInt16LE(1, 32);
      wav.writeUInt16LE(8, 34);
      wav.write('data', 36);
      wav.writeUInt32LE(800, 40);
      for (const file of [
        { name: 'report.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 plan') },
        { name: 'tune.wav', mimeType: 'audio/wav', buffer: wav },
      ]) {
        const chooser = page.waitForEvent('filechooser');
        await page.getByRole('button', { name: 'Attach' }).click();
        await (await chooser).setFiles([file]);
      }
      await sendMessage(page, 'two files');
      await expect(hermes(page, 'Received: report.pdf').getByText('— Iris demo agent')).toBeVisible();
      // Its turn over (stored final, its tools' times with it), or the reload reads it half-way.
      await expect(hermes(page, 'Received: report.pdf')).toHaveAttribute('aria-busy', 'false');
      const chips = page.locator('.doc-chip, .audio-player');
      await expect(chips).toHaveCount(2);
      const files = await expectStillThroughLoad(page, `files-${name}`, {
        head: '.lane-head-chip',
        lane: '.doc-chip, .audio-player, .media-loading-chip',
        loaded: () => expect(chips).toHaveCount(2),
      });
      expect(files).toHaveLength(2);
    });
  });
}

// What a person sees on each frame of a lane opened at start, from its first paint until the lane itself
// is there: the lane head (plain text) while the code loads, then the lane. The CPU is slowed 20 times,
// as on a cheap phone, so each step of the hand-over lasts frames enough to be seen.
interface Seen {
  /** Nothing of the app is on screen yet (before the first paint). */
  blank: boolean;
  head: boolean;
  title: string;
  newest: boolean;
  /** The newest message shows its Markdown (the head shows none: only the lane's frames are asked). */
  styled: boolean;
  /** The channel list's text on a wide screen (the head's own sidebar while it is up). */
  side: string;
}

for (const [name, viewport] of [
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const) {
  test.describe(`the first screen of a lane opened at start (${name})`, () => {
    test.use({ serviceWorkers: 'block', viewport });

    test('goes from the head to the lane with the channel’s name, the newest message and no wrong text on every frame', async ({
      page,
      iris,
    }) => {
      test.slow();
      seedLongLane(iris, 30);
      // The newest in bold: the lane hands over with its Markdown shown, not plain for a frame or more.
      const store = demoGateway(iris).store;
      store.conversations.append({ lane: LANE, role: 'assistant', text: 'The **newest** of all', ts: Date.now() });
      store.flush();
      const newest = 'newest of all';
      await pairAndOpen(page, iris);
      await expect(hermes(page, newest)).toBeVisible();
      await expect(pageTitle(page)).toHaveText('General');

      await page.addInitScript((needle) => {
        const seen: Seen[] = [];
        (window as unknown as { seen: Seen[] }).seen = seen;
        const text = (selector: string) => document.querySelector<HTMLElement>(selector)?.innerText.trim() ?? '';
        const look = () => {
          const head = document.querySelector('.lane-head');
          const shell = document.querySelector('.shell');
          if (head)
            seen.push({
              blank: false,
              head: true,
              title: text('.lane-head-title'),
              newest: text('.lane-head-list').includes(needle),
              styled: false,
              side: text('.lane-head-side'),
            });
          else
            seen.push({
              blank: !shell,
              head: false,
              title: text('.topbar-title'),
              newest: text('[role=log][aria-label=Messages]').includes(needle),
              styled: !!document.querySelector('[role=log][aria-label=Messages] strong'),
              side: text('.shell-sidebar'),
            });
          requestAnimationFrame(look);
        };
        requestAnimationFrame(look);
      }, newest);
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 20 });
      await page.reload();
      // The lane itself: its Markdown pipeline has run (the head has none) and the head is gone.
      await expect(hermes(page, newest)).toBeVisible({ timeout: 60_000 });
      await expect(page.locator('.lane-head')).toHaveCount(0);
      await expect(
        channelLink(page, 'General')
          .or(page.getByRole('button', { name: 'Channels' }))
          .first(),
      ).toBeVisible();
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });

      const seen = await page.evaluate(() => (window as unknown as { seen: Seen[] }).seen);
      const painted = seen.slice(seen.findIndex((s) => !s.blank));
      expect(painted.some((s) => s.head)).toBe(true);
      expect(painted.at(-1)!.head).toBe(false);
      // Every frame from the first paint on; a failure lists what each run of frames showed.
      const wrong = (s: Seen) =>
        s.blank || s.title !== 'General' || !s.newest || (!s.head && !s.styled) || s.side.includes('No channels yet')
          ? 'WRONG '
          : '';
      const runs: string[] = [];
      for (const s of painted) {
        const line = `${wrong(s)}${s.head ? 'head' : 'lane'}: title "${s.title}", newest ${s.newest ? 'shown' : 'missing'}${s.head || s.styled ? '' : ' (plain)'}, side "${s.side.replace(/\s+/g, ' ').slice(0, 48)}"`;
        const last = runs.at(-1);
        if (last?.endsWith(line)) runs[runs.length - 1] = `${Number(last.split(' ')[0]) + 1} ${line}`;
        else runs.push(`1 ${line}`);
      }
      expect(painted.filter(wrong), `frames seen (count, what):\n${runs.join('\n')}`).toEqual([]);
    });
  });
}

test.describe('a lane opened at start on a phone', () => {
  // Lighthouse's phone: its pixel ratio makes the lane's first row positions estimates it corrects.
  test.use({ serviceWorkers: 'block', viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75 });

  test('shifts nothing on the page while the lane lays itself out under the head', async ({ page, iris }) => {
    await pairAndOpen(page, iris);
    for (const n of [1, 2, 3, 4]) {
      await sendMessage(page, `Message ${n}: deploy the server and check the logs.`);
      await expect(hermes(page, `Echo: Message ${n}:`).getByText('— Iris demo agent')).toBeVisible();
    }
    await page.addInitScript(() => {
      const shifts: string[] = [];
      (window as unknown as { shifts: string[] }).shifts = shifts;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { value: number; sources?: { node?: Node }[] })[])
          shifts.push(`${entry.value.toFixed(4)}: ${entry.sources?.map((s) => s.node?.nodeName).join(', ')}`);
      }).observe({ type: 'layout-shift', buffered: true });
    });
    // The lane's code arriving over a slow link, as on a phone: the head stays up while the lane lays out.
    await page.route(/\/assets\/[\w-]+\.js$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      await route.continue();
    });
    await page.reload();
    await expect(page.getByRole('main', { name: 'Conversation (loading)' })).toBeVisible();
    await expect(page.getByRole('main', { name: 'Conversation (loading)' })).toHaveCount(0);
    await expect(hermes(page, 'Echo: Message 4:').locator('.md-code')).toBeVisible();
    await page.waitForTimeout(500); // a shift reported after the frame it happened in
    expect(await page.evaluate(() => (window as unknown as { shifts: string[] }).shifts)).toEqual([]);
  });
});
