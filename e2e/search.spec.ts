// Issue 4, "Search": the gateway searches online, the local index offline; a result opens its lane at the message.
import AxeBuilder from '@axe-core/playwright';
import { rmSync } from 'node:fs';
import type { Page } from '@playwright/test';
import {
  demoGateway,
  expect,
  type IrisServer,
  launchServer,
  messageBox,
  pair,
  pairAndOpen,
  settled,
  test,
} from './support';

const GENERAL = 'web:default';
const DEMO = 'web:demo';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const MINUTE = 60_000;

const store = (iris: IrisServer) => demoGateway(iris).store;

/** `count` filler messages in a lane, oldest first, ending an hour ago; returns nothing. */
function seedFiller(iris: IrisServer, lane: string, count: number, start: number): void {
  for (let i = 0; i < count; i++) {
    store(iris).conversations.append({
      lane,
      role: i % 2 ? 'assistant' : 'user',
      text: `Filler message number ${i} about nothing much.`,
      ts: start + i * MINUTE,
    });
  }
}

const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search messages' });
const results = (page: Page) => page.getByRole('list', { name: 'Results' });

/** A lane holding one message (`role` saying `text`, a minute ago), paired, on the search page with `query` typed. */
async function searchOneMessage(
  page: Page,
  iris: IrisServer,
  message: { role: 'user' | 'assistant'; text: string },
  query: string,
): Promise<void> {
  store(iris).conversations.append({ lane: GENERAL, ...message, ts: Date.now() - MINUTE });
  await pair(page, iris);
  await page.goto(`${iris.baseURL}/#/search`);
  await searchBox(page).fill(query);
}

test.use({ viewport: DESKTOP });

test('online: the gateway finds an old message the device never loaded; choosing it opens the lane at it', async ({
  page,
  iris,
}) => {
  const start = Date.now() - 3 * 24 * 60 * MINUTE;
  const old = store(iris).conversations.append({
    lane: GENERAL,
    role: 'user',
    text: 'Where did we park the zeppelin blueprints?',
    ts: start - MINUTE,
  });
  seedFiller(iris, GENERAL, 120, start);
  await pairAndOpen(page, iris, GENERAL);
  await page.getByRole('banner').getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/#\/search\?lane=web%3Adefault/);
  await expect(searchBox(page)).toBeFocused();
  await page.keyboard.type('zeppelin blue');
  const hit = results(page).getByRole('link').filter({ hasText: 'park the' });
  await expect(hit).toHaveCount(1);
  await expect(hit).toContainText('General');
  await expect(hit.locator('mark')).toHaveText(['zeppelin', 'blueprints']);
  await expect(hit.locator('time')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: '1 message found.' })).toBeVisible();
  // The device had only the newest page: the result came from the gateway.
  await expect(page.getByText('Offline: searching')).toHaveCount(0);

  await hit.click();
  await expect(page.locator(`[data-message-id="${old.message_id}"]`)).toHaveClass(/is-target/, { timeout: 20_000 });
  await expect(
    page.getByRole('log', { name: 'Messages' }).getByRole('article').filter({ hasText: 'zeppelin blueprints' }),
  ).toBeVisible();
  // Once there, the address is the lane's: a reload opens at the newest message, not at this old one.
  await expect(page).toHaveURL(/#\/c\/web%3Adefault$/);
});

test('scope: all chats or only the chat search was opened from', async ({ page, iris }) => {
  const now = Date.now() - 10 * MINUTE;
  store(iris).conversations.append({
    lane: GENERAL,
    role: 'user',
    text: 'The quarterly marmalade report is late',
    ts: now,
  });
  store(iris).conversations.append({
    lane: DEMO,
    role: 'assistant',
    text: 'Marmalade stock is fine in the demo',
    ts: now + MINUTE,
  });
  await pair(page, iris);
  await page.goto(`${iris.baseURL}/#/search?lane=${encodeURIComponent(DEMO)}`);
  await searchBox(page).fill('marmalade');
  await expect(results(page).getByRole('link')).toHaveCount(2);
  await page.getByRole('radio', { name: /This chat/ }).check();
  await expect(page.getByRole('radio', { name: /This chat/ })).toHaveAccessibleName('This chat (Demo)');
  await expect(results(page).getByRole('link')).toHaveCount(1);
  await expect(results(page).getByRole('link')).toContainText('Marmalade stock is fine');
  await page.getByRole('radio', { name: 'All chats' }).check();
  await expect(results(page).getByRole('link')).toHaveCount(2);
  // Without a lane to come from, "this chat" is not offered.
  await page.goto(`${iris.baseURL}/#/search`);
  await expect(page.getByRole('radio', { name: /This chat/ })).toBeDisabled();
});

test('snippets are text: markup in a message is shown, never run', async ({ page, iris }) => {
  await searchOneMessage(
    page,
    iris,
    { role: 'assistant', text: 'walrus <img src=x onerror="window.__pwned=1"> <script>window.__pwned=2</script>' },
    'walrus',
  );
  const hit = results(page).getByRole('link');
  await expect(hit).toContainText('<img src=x onerror="window.__pwned=1">');
  await expect(hit.locator('img, script')).toHaveCount(0);
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
});

test('offline: the messages cached on this device are searched locally, and a result opens its lane', async ({
  page,
}) => {
  const iris = await launchServer();
  try {
    const start = Date.now() - 2 * 24 * 60 * MINUTE;
    seedFiller(iris, GENERAL, 30, start);
    const target = store(iris).conversations.append({
      lane: GENERAL,
      role: 'assistant',
      text: 'The café crème recipe needs two shots of espresso.',
      ts: start + 40 * MINUTE,
    });
    store(iris).conversations.append({
      lane: DEMO,
      role: 'user',
      text: 'Unrelated demo chatter',
      ts: start + 41 * MINUTE,
    });
    await pairAndOpen(page, iris, GENERAL);
    const lane = page.getByRole('log', { name: 'Messages' });
    await expect(lane.getByText('two shots of espresso')).toBeVisible();
    await page.getByRole('banner').getByRole('button', { name: 'Search' }).click();
    await expect(searchBox(page)).toBeVisible();

    await iris.server.close();
    await expect(page.getByText(/^(Offline|Reconnecting)/).first()).toBeVisible();
    // Accents and case do not matter; the last word is a prefix.
    await searchBox(page).fill('CAFE espres');
    const hit = results(page).getByRole('link');
    await expect(hit).toHaveCount(1);
    await expect(hit.locator('mark')).toHaveText(['café', 'espresso']);
    await expect(hit).toContainText('General');
    await expect(page.getByText('Offline: searching the messages saved on this device.')).toBeVisible();
    await searchBox(page).fill('zeppelin');
    await expect(page.getByRole('status').filter({ hasText: 'No messages match.' })).toBeVisible();

    await searchBox(page).fill('cafe');
    await results(page).getByRole('link').click();
    await expect(page.locator(`[data-message-id="${target.message_id}"]`)).toHaveClass(/is-target/);
    await expect(lane.getByRole('article').filter({ hasText: 'two shots of espresso' })).toBeVisible();
    await expect(page).toHaveURL(/#\/c\/web%3Adefault$/);
  } finally {
    await iris.server.close();
    rmSync(iris.dataDir, { recursive: true, force: true });
  }
});

test('going back from a result shows the same search', async ({ page, iris }) => {
  await searchOneMessage(page, iris, { role: 'user', text: 'Remember the lighthouse keeper' }, 'lighthouse');
  await results(page).getByRole('link').click();
  await expect(messageBox(page)).toBeVisible();
  await page.goBack();
  await expect(searchBox(page)).toHaveValue('lighthouse');
  await expect(results(page).getByRole('link')).toContainText('lighthouse keeper');
});

test('Back pressed just as a result is placed still returns to the search, and keeps its entry', async ({
  page,
  iris,
}) => {
  // The lane tidies its address (drops `?m=`) once the message is placed, on an animation frame. A frame
  // can come between a Back's traversal and its hashchange (a task later, when the router hears of it):
  // here the frames and that hashchange are held so that frame comes exactly there, as a loaded phone can.
  await page.addInitScript(() => {
    const w = window as unknown as Record<string, () => void>;
    const raf = window.requestAnimationFrame.bind(window);
    let frames: FrameRequestCallback[] | undefined;
    let changes: HashChangeEvent[] | undefined;
    w.holdFrames = () => (frames = []);
    w.releaseFrames = () => {
      const held = frames ?? [];
      frames = undefined;
      for (const callback of held) raf(callback);
    };
    window.requestAnimationFrame = (callback) => (frames ? frames.push(callback) : raf(callback));
    w.holdHashChange = () => (changes = []);
    w.releaseHashChange = () => {
      const held = changes ?? [];
      changes = undefined;
      for (const e of held)
        window.dispatchEvent(new HashChangeEvent('hashchange', { oldURL: e.oldURL, newURL: e.newURL }));
    };
    window.addEventListener(
      'hashchange',
      (e) => {
        if (!changes || !e.isTrusted) return;
        e.stopImmediatePropagation();
        changes.push(e);
      },
      true,
    );
  });
  await searchOneMessage(page, iris, { role: 'user', text: 'Remember the lighthouse keeper' }, 'lighthouse');
  await expect(results(page).getByRole('link')).toContainText('lighthouse keeper');
  const call = (name: string) => page.evaluate((n) => (window as unknown as Record<string, () => void>)[n]!(), name);
  await call('holdFrames');
  await results(page).getByRole('link').click();
  await expect(messageBox(page)).toBeVisible();
  await expect(page).toHaveURL(/\?m=/); // not placed yet: its frames are held
  await call('holdHashChange');
  await page.goBack();
  await call('releaseFrames');
  await page.waitForTimeout(500); // the message is placed (a few frames)
  await call('releaseHashChange');
  await expect(searchBox(page)).toHaveValue('lighthouse');
  await expect(page).toHaveURL(/#\/search\?q=lighthouse$/);
  await expect(results(page).getByRole('link')).toContainText('lighthouse keeper');
  // Forward still leads to the result's lane: the entries are where they were.
  await page.goForward();
  await expect(messageBox(page)).toBeVisible();
});

test('the search page has no serious accessibility problems (light and dark); screenshots', async ({ page, iris }) => {
  const now = Date.now();
  store(iris).conversations.append({
    lane: GENERAL,
    role: 'user',
    text: 'Can you book the train to Lyon for the conference next week?',
    ts: now - 3 * 24 * 60 * MINUTE,
  });
  store(iris).conversations.append({
    lane: GENERAL,
    role: 'assistant',
    text: 'I found three trains to Lyon on Tuesday morning. The 07:04 arrives in time for the opening talk, and it has a quiet car.',
    ts: now - 3 * 24 * 60 * MINUTE + MINUTE,
  });
  store(iris).conversations.append({
    lane: DEMO,
    role: 'assistant',
    text: 'Lyon weather next week: mild, with rain on Thursday.',
    ts: now - 60 * MINUTE,
  });
  await pair(page, iris);
  await page.goto(`${iris.baseURL}/#/search?lane=${encodeURIComponent(GENERAL)}`);
  await searchBox(page).fill('lyon');
  await expect(results(page).getByRole('link')).toHaveCount(3);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const found = await new AxeBuilder({ page }).include('.search-page').analyze();
    const bad = found.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(bad.map((v) => `${scheme} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }
  for (const [name, size] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    await page.setViewportSize(size);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await settled(page);
      await page.screenshot({ path: `/tmp/look/search-${name}-${scheme}.png` });
    }
  }
});
