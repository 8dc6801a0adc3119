// Issue 19, the live cursor (spec README §16): a reload after live use replays nothing, and a device
// that was away gets exactly the frames it missed. Frames are counted on the page's own socket.
import type { Page } from '@playwright/test';
import { TestClient } from '../server/gateway/testclient';
import { observeWire, readApp, readWire, storedCursor } from './faults/app';
import { demoGateway, expect, type IrisServer, LANE, openLane, pairAndOpen, test } from './support';

const store = (iris: IrisServer) => demoGateway(iris).store;

function reply(page: Page, text: string) {
  return page
    .getByRole('log', { name: 'Messages' })
    .getByRole('article', { name: /^Iris demo agent, / })
    .filter({ hasText: text });
}

/** The page's first finished sync: what it sent and the cursors replayed before sync.done. */
async function firstSync(page: Page) {
  await expect
    .poll(async () => (await readWire(page)).syncs.some((s) => s.done !== undefined), { message: 'a sync finished' })
    .toBe(true);
  return (await readWire(page)).syncs.find((s) => s.done !== undefined)!;
}

test('a reload after live turns replays no frame; a device away gets exactly what it missed', async ({
  page,
  iris,
}) => {
  test.setTimeout(90_000);
  await page.context().addInitScript('globalThis.__name = (f) => f;');
  await page.context().addInitScript(observeWire);
  await pairAndOpen(page, iris);
  const deviceId = (await readApp(page)).deviceId!;

  for (let i = 1; i <= 3; i++) {
    await page.getByRole('textbox', { name: 'Message' }).fill(`live turn ${i}`);
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(reply(page, `live turn ${i}`)).toBeVisible();
  }
  // Received live, stored live: the cursor reaches the gateway's newest without another sync.
  await expect
    .poll(
      async () =>
        (await storedCursor(page)) === store(iris).cursor(deviceId) &&
        (await readApp(page)).lanes.every((l) => !l.busy),
    )
    .toBe(true);
  const live = await storedCursor(page);
  expect((await readWire(page)).syncs).toHaveLength(1);

  await page.reload();
  const afterReload = await firstSync(page);
  expect(afterReload.cursor).toBe(live);
  expect(afterReload.replayed).toEqual([]);
  await expect(reply(page, 'live turn 3')).toBeVisible();
  // The sync acknowledged everything: the gateway keeps nothing more for this device.
  expect(store(iris).devices.get(deviceId)!.outbox).toEqual([]);

  // Away: the page closes; another device talks in the lane meanwhile.
  const context = page.context();
  await page.close();
  await expect.poll(() => iris.server.gateway!.connectionCount()).toBe(0);
  const other = await TestClient.paired(iris.gatewayUrl, { token: iris.token, device_name: 'other device' });
  try {
    await other.chat('said while you were away', { chat_id: LANE });
    await expect
      .poll(() => store(iris).devices.get(deviceId)!.outbox.at(-1)?.frame.includes('"agent.idle"'))
      .toBe(true);
  } finally {
    await other.close();
  }
  const missed = store(iris)
    .devices.get(deviceId)!
    .outbox.map((e) => e.cursor);
  expect(missed[0]).toBe(live + 1);

  const back = await context.newPage();
  await openLane(back, iris);
  const onReturn = await firstSync(back);
  expect(onReturn.cursor).toBe(live);
  expect(onReturn.replayed).toEqual(missed);
  expect(onReturn.done).toBe(missed.at(-1));
  await expect(reply(back, 'said while you were away')).toBeVisible();
});
