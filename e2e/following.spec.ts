// A reader at the newest message follows a reply that grows fast: each update may add more than a
// screen of text between the list's pin to the bottom and the scroll event that pin causes. That
// growth is not the reader scrolling away (the streaming benchmark saw the list stop following and
// end up far above the reply's end, with no pill).
import { expect, test } from '@playwright/test';
import { pairAndOpen } from './support';
import { startHostile, type HostileSetup } from './hostile/hostile-gateway';

const LANE = 'web:default';
let hostile: HostileSetup;

test.afterEach(async () => {
  await hostile?.close();
});

for (const viewport of [
  { name: 'phone', width: 390, height: 780 },
  { name: 'desktop', width: 1280, height: 900 },
]) {
  test(`on a ${viewport.name}, the reader at the bottom follows a reply that grows by screens at a time`, async ({
    page,
  }) => {
    test.setTimeout(90_000);
    hostile = await startHostile();
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await pairAndOpen(page, hostile);
    const log = page.getByRole('log', { name: 'Messages' });
    for (let i = 0; i < 12; i++) {
      hostile.gateway.emit({
        type: 'message',
        chat_id: LANE,
        payload: { message_id: `before${i}`, role: 'assistant', text: `earlier message ${i}`, ts: 1_000 + i },
      });
    }
    await expect(log.getByText('earlier message 11')).toBeInViewport();

    hostile.gateway.emit({ type: 'message.start', chat_id: LANE, payload: { message_id: 'long', role: 'assistant' } });
    let text = '';
    for (let step = 1; step <= 40; step++) {
      // About two screens of new lines per update.
      for (let line = 0; line < 30; line++) text += `Step ${step} line ${line}.\n\n`;
      hostile.gateway.emit({ type: 'message.update', chat_id: LANE, payload: { message_id: 'long', text } });
      // One update at a time: the next goes once this one is on the page (the pin has had its turn).
      await expect(log.getByText(`Step ${step} line 29.`)).toBeAttached();
      if (step % 10 === 0) await expect(log.getByText(`Step ${step} line 29.`)).toBeInViewport();
    }
    text += 'The very end of the reply.';
    hostile.gateway.emit({
      type: 'message.stop',
      chat_id: LANE,
      payload: { message_id: 'long', final_text: text, ts: 9_000 },
    });
    await expect(log.getByText('The very end of the reply.')).toBeInViewport();
    await expect(page.getByRole('button', { name: /New messages/ })).toBeHidden();
  });
}

/**
 * Counts the animation frames in which a row without its message (a blank placeholder) is on screen in
 * the list: the list must not grow by ids whose rows it has not read yet.
 */
async function watchBlankRows(page: import('@playwright/test').Page): Promise<() => Promise<number>> {
  await page.evaluate(() => {
    const w = window as unknown as { __blank: number; __watching: boolean };
    w.__blank = 0;
    w.__watching = true;
    const look = () => {
      if (!w.__watching) return;
      const list = document.querySelector('[role="log"]');
      const box = list?.getBoundingClientRect();
      if (box)
        for (const el of document.querySelectorAll('.msg-placeholder')) {
          const r = el.getBoundingClientRect();
          if (r.bottom > box.top && r.top < box.bottom) {
            w.__blank++;
            break;
          }
        }
      requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  });
  return () =>
    page.evaluate(() => {
      const w = window as unknown as { __blank: number; __watching: boolean };
      w.__watching = false;
      return w.__blank;
    });
}

test('a burst of messages lands at the bottom whole: no frame shows a blank row', async ({ page }) => {
  test.setTimeout(90_000);
  hostile = await startHostile();
  await page.setViewportSize({ width: 412, height: 915 });
  await pairAndOpen(page, hostile);
  const log = page.getByRole('log', { name: 'Messages' });
  hostile.gateway.emit({
    type: 'message',
    chat_id: LANE,
    payload: { message_id: 'first', role: 'assistant', text: 'the first message', ts: 1_000 },
  });
  await expect(log.getByText('the first message')).toBeInViewport();
  const blankFrames = await watchBlankRows(page);
  let ts = 2_000;
  for (const burst of [1, 3, 300, 1, 40]) {
    for (let i = 0; i < burst; i++) {
      ts++;
      hostile.gateway.emit({
        type: 'message',
        chat_id: LANE,
        payload: { message_id: `m${ts}`, role: 'assistant', text: `burst message ${ts}`, ts },
      });
    }
    await expect(log.getByText(`burst message ${ts}`, { exact: true })).toBeInViewport();
  }
  expect(await blankFrames()).toBe(0);
});
