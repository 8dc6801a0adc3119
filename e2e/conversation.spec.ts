// Issue 4, "A conversation": the lane view against the demo gateway, as a person sees it.
import type { Page } from '@playwright/test';
import { TestClient } from '../server/gateway/testclient';
import { expect, pair, test, type IrisServer } from './fixtures';

const LANE = 'web:default';
const DAY = 24 * 3600 * 1000;

function gatewayStore(iris: IrisServer) {
  const gateway = iris.server.gateway;
  if (!gateway) throw new Error('the demo gateway is not running');
  return gateway.store;
}

/** A second device on the same gateway, speaking the protocol directly. */
async function otherDevice(iris: IrisServer): Promise<TestClient> {
  return TestClient.paired(iris.gatewayUrl, { token: iris.token, device_name: 'other device' });
}

async function openLane(page: Page, iris: IrisServer, lane = LANE): Promise<void> {
  await page.goto(`${iris.baseURL}/#/c/${encodeURIComponent(lane)}`);
  await expect(messages(page)).toBeVisible();
}

function messages(page: Page) {
  return page.getByRole('log', { name: 'Messages' });
}

test('look: a lane with code, a table, tools and reasoning', async ({ page, iris }) => {
  const store = gatewayStore(iris);
  const now = Date.now();
  store.conversations.append({ lane: LANE, role: 'user', text: 'How do I read a file in TypeScript?', ts: now - 2 * DAY });
  store.conversations.append({
    lane: LANE,
    role: 'assistant',
    text: 'Use `readFile` from `node:fs/promises`:\n\n```ts\nimport { readFile } from "node:fs/promises";\n\nconst text = await readFile("notes.txt", "utf8");\nconsole.log(text.length); // characters\n```\n\n| Function | Returns |\n| --- | --- |\n| `readFile` | `Promise<Buffer>` |\n| `readFileSync` | `Buffer` |\n\nSee [the docs](https://nodejs.org/api/fs.html).',
    reasoning: 'They want a short example. Mention the promise API and the sync one in a table.',
    model: 'demo-1',
    tokens: 812,
    ts: now - 2 * DAY + 60_000,
  });
  store.conversations.append({ lane: LANE, role: 'cron', text: 'Stand-up in 5 minutes', ts: now - DAY });
  await page.setViewportSize({ width: 390, height: 844 });
  await pair(page, iris);
  await openLane(page, iris);
  await expect(messages(page).getByRole('article').first()).toBeVisible();
  const metrics = () => page.evaluate(() => { const el = document.querySelector('[role=log]')!; return [el.scrollTop, el.scrollHeight, el.clientHeight, (el.firstElementChild as HTMLElement).style.height, el.querySelectorAll('article').length]; });
  console.log('after open', await metrics());
  await page.waitForTimeout(1000);
  console.log('after 1s', await metrics());
  const other = await otherDevice(iris);
  await other.chat('Please count these words for me', { chat_id: LANE });
  await expect(messages(page).getByText('— Iris demo agent')).toBeVisible();
  console.log('after chat', await metrics());
  await page.waitForTimeout(1000);
  console.log('after chat 1s', await metrics());
  for (const [name, size] of [
    ['phone', { width: 390, height: 844 }],
    ['desktop', { width: 1280, height: 800 }],
  ] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(300);
      await page.screenshot({ path: `/tmp/look/lane-${name}-${scheme}.png` });
    }
  }
  await other.close();
});
