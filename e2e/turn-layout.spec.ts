// Issue 16, point 3, "no layout shift per turn": while the agent works on a reply, nothing on screen
// jumps. The waiting state is a placeholder reply at the end of the conversation (the agent's bubble with
// a typing indicator, where its reply then appears), not a line that comes and goes above the composer.
import { expect, hermes, messages, pairAndOpen, sendMessage, test } from './support';

test.use({ viewport: { width: 412, height: 915 }, hasTouch: true, isMobile: true });

interface Sampled {
  __boxes: { list: string; composer: string }[];
  __sampling: boolean;
}

test('a whole demo turn: the list and the composer never move; the reply takes the placeholder’s place', async ({
  page,
  iris,
}) => {
  // The demo gateway as it is, except that what follows agent.busy is held until the test has seen the
  // waiting state (so the state between busy and the first bubble is really on screen, on any machine).
  let held: string[] | undefined;
  let release: (() => void) | undefined;
  await page.routeWebSocket(/\/ws$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => server.send(m));
    server.onMessage((m) => {
      if (held && typeof m === 'string') return void held.push(m);
      ws.send(m);
      if (
        typeof m === 'string' &&
        release === undefined &&
        (JSON.parse(m) as { type?: string }).type === 'agent.busy'
      ) {
        held = [];
        release = () => {
          for (const frame of held!.splice(0)) ws.send(frame);
          held = undefined;
        };
      }
    });
  });
  await pairAndOpen(page, iris);
  await page.evaluate(() => {
    const w = window as unknown as Sampled;
    w.__boxes = [];
    w.__sampling = true;
    const box = (selector: string) => {
      const r = document.querySelector(selector)!.getBoundingClientRect();
      return `${Math.round(r.top)}..${Math.round(r.bottom)}`;
    };
    const sample = () => {
      w.__boxes.push({ list: box('[role="log"][aria-label="Messages"]'), composer: box('.composer') });
      if (w.__sampling) requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
  });

  await sendMessage(page, 'Plan my week');
  // Between agent.busy and the first bubble: the agent's bubble, waiting, at the end of the list.
  const waiting = messages(page).locator('.msg-waiting');
  await expect(waiting).toBeVisible();
  await expect(waiting).toContainText('Iris demo agent'); // the agent's name the demo gateway reports
  await expect(waiting).toContainText('Thinking…');
  await expect(page.getByRole('status').filter({ hasText: 'Iris demo agent is thinking…' })).toHaveCount(1);
  const slot = (await waiting.boundingBox())!;
  const composer = (await page.locator('.composer').boundingBox())!;
  expect(slot.y + slot.height, 'the placeholder sits above the composer').toBeLessThanOrEqual(composer.y);
  release!();

  const reply = hermes(page, 'Iris demo agent');
  await expect(reply).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
  await expect(waiting).toHaveCount(0);
  // The reply starts where the placeholder was.
  const replyBox = (await reply.boundingBox())!;
  expect(replyBox.y + replyBox.height).toBeGreaterThan(slot.y);

  const boxes = await page.evaluate(() => {
    const w = window as unknown as Sampled;
    w.__sampling = false;
    return w.__boxes;
  });
  expect(boxes.length).toBeGreaterThan(10);
  expect([...new Set(boxes.map((b) => b.list))], 'the message list’s box').toHaveLength(1);
  expect([...new Set(boxes.map((b) => b.composer))], 'the composer’s box').toHaveLength(1);
});
