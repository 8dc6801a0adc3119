// Issue 3 in a real browser: one socket for several tabs (Web Locks + BroadcastChannel over one
// IndexedDB), hand-over when the leader tab closes, and no reconnect loop after an auth refusal.
import { rmSync } from 'node:fs';
import type { Page } from '@playwright/test';
import {
  demoGateway,
  expect,
  type IrisServer,
  LANE,
  launchServer,
  openLane,
  pairAndOpen,
  sendMessage,
  test,
  userTextsAtGateway,
} from '../support';

/** The lane's messages as this page's IndexedDB holds them (read with the raw API, no app hooks). */
async function storedMessages(page: Page): Promise<{ id: string; role: string; text: string; status: string }[]> {
  return page.evaluate(async (lane) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open('iris');
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const rows = await new Promise<
      { message_id: string; lane: string; role: string; text: string; status: string; ts: number }[]
    >((resolve, reject) => {
      const req = db.transaction('messages').objectStore('messages').getAll();
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    db.close();
    return rows
      .filter((m) => m.lane === lane)
      .sort((a, b) => a.ts - b.ts)
      .map((m) => ({ id: m.message_id, role: m.role, text: m.text, status: m.status }));
  }, LANE);
}

/**
 * Opens another tab of the same browser and waits until it shows the connection as Connected: by then a
 * tab that led would have opened its own socket, and a follower has heard the leader's state.
 */
async function openFollower(page: Page, iris: IrisServer): Promise<void> {
  await page.goto(`${iris.origin}/#/settings`);
  await expect(page.getByRole('region', { name: 'Gateway' })).toContainText('Connected', { timeout: 20_000 });
  await openLane(page, iris);
}

test('two tabs hold one socket, show the same messages, and the other tab takes over within 2 s when the leader closes', async ({
  context,
  iris,
}) => {
  const gw = demoGateway(iris);
  const leader = await context.newPage();
  await pairAndOpen(leader, iris);

  const follower = await context.newPage();
  const followerSockets: number[] = [];
  follower.on('websocket', () => followerSockets.push(Date.now()));
  await openFollower(follower, iris);
  // Connected in the follower comes after any socket of its own would have opened.
  expect(gw.connectionCount()).toBe(1);
  expect(followerSockets).toHaveLength(0); // the second tab never opened a socket of its own

  // A message typed in the tab without the socket goes out through the leader.
  await sendMessage(follower, 'sent from the second tab');
  for (const page of [leader, follower]) {
    const log = page.getByRole('log', { name: 'Messages' });
    await expect(
      log.getByRole('article', { name: /^You/ }).getByText('sent from the second tab', { exact: true }),
    ).toBeVisible();
    await expect(log.getByText('— Iris demo agent')).toBeVisible();
  }
  expect(userTextsAtGateway(iris, LANE)).toEqual(['sent from the second tab']);
  // One database: both tabs read the same rows.
  expect(await storedMessages(follower)).toEqual(await storedMessages(leader));
  expect((await storedMessages(leader)).map((m) => m.role)).toEqual(['user', 'assistant']);

  // The leader tab closes: the follower opens the one socket within two seconds.
  const closedAt = Date.now();
  await leader.close();
  await expect.poll(() => followerSockets.length, { timeout: 2000, intervals: [50] }).toBe(1);
  expect(followerSockets[0]! - closedAt).toBeLessThan(2000);
  await expect.poll(() => gw.connectionCount(), { timeout: 5000 }).toBe(1);

  // And it works as the leader now.
  await sendMessage(follower, 'after the hand-over');
  await expect(
    follower
      .getByRole('log', { name: 'Messages' })
      .getByRole('article', { name: /^You/ })
      .getByText('after the hand-over', { exact: true }),
  ).toBeVisible();
  await expect.poll(() => userTextsAtGateway(iris, LANE)).toEqual(['sent from the second tab', 'after the hand-over']);
  await expect(follower.getByRole('log', { name: 'Messages' }).getByText('— Iris demo agent')).toHaveCount(2);
  expect(gw.connectionCount()).toBe(1);
});

test('three tabs: still one socket; a send from a follower while the leader reloads is delivered once', async ({
  context,
  iris,
}) => {
  const gw = demoGateway(iris);
  const a = await context.newPage();
  await pairAndOpen(a, iris);
  const b = await context.newPage();
  await openFollower(b, iris);
  const c = await context.newPage();
  await openFollower(c, iris);
  expect(gw.connectionCount()).toBe(1);
  await Promise.all([a.reload(), sendMessage(c, 'during a reload')]);
  await expect(c.getByRole('log', { name: 'Messages' }).getByText('— Iris demo agent')).toBeVisible();
  await expect.poll(() => gw.connectionCount(), { timeout: 5000 }).toBe(1);
  // A second copy would leave the one outbox before anything queued after it: once a later message has
  // arrived, the first one can no longer be delivered twice.
  await sendMessage(b, 'after the reload');
  await expect.poll(() => userTextsAtGateway(iris, LANE)).toEqual(['during a reload', 'after the reload']);
});

test('a paired tab whose token is no longer accepted stops reconnecting and says so', async ({ page }) => {
  const first = await launchServer();
  const { dataDir, server } = first;
  const port = server.port;
  let second: IrisServer | undefined;
  try {
    await pairAndOpen(page, first);
    const sockets: string[] = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));
    // The gateway restarts with another token (the owner revoked this device's pairing).
    await server.close();
    second = await launchServer({ dataDir, port, token: 'a-different-token' });
    await expect(page.getByRole('status').getByText('The gateway no longer accepts this device.')).toBeVisible({
      timeout: 20_000,
    });
    const attempts = sockets.length;
    expect(attempts).toBeGreaterThanOrEqual(1);
    // Coming back to the foreground or the network returning makes a waiting connection retry at once,
    // one backing off between attempts included. A request the page makes right after those events is
    // seen after any socket they opened: once it is seen, a retry would have shown.
    const marker = page.waitForRequest((r) => r.url().endsWith('/manifest.webmanifest?after-wake'));
    await page.evaluate(() => {
      window.dispatchEvent(new Event('online'));
      document.dispatchEvent(new Event('visibilitychange'));
      void fetch('/manifest.webmanifest?after-wake').catch(() => undefined);
    });
    await marker;
    expect(sockets.length).toBe(attempts);
    expect(demoGateway(second).connectionCount()).toBe(0);
    await expect(page.getByRole('link', { name: 'Pair again' })).toBeVisible();
  } finally {
    await (second ?? first).server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
