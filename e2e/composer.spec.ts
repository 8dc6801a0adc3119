// Issue 4, "Composer": typing, sending, drafts, slash autocomplete, stop and steer, against the demo gateway.
import AxeBuilder from '@axe-core/playwright';
import { rmSync } from 'node:fs';
import type { Page } from '@playwright/test';
import {
  expect,
  type IrisServer,
  LANE,
  launchServer,
  messageBox,
  messages,
  openLane,
  pair,
  pairAndOpen,
  storeRows,
  test,
} from './support';
import { TestClient } from '../server/gateway/testclient';
import { startHostile } from './hostile/hostile-gateway';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

interface OwnGateway {
  iris: IrisServer;
  /** Stops the serving process: the app loses its connection. */
  stop(): Promise<void>;
  /** Starts it again on the same port with the same data (the app reconnects by itself). */
  restart(): Promise<void>;
}

/** A serving process this test controls: stopped to go offline, restarted to come back. */
async function withGateway(options: { streamDelayMs?: number }, run: (gw: OwnGateway) => Promise<void>): Promise<void> {
  const first = await launchServer(options);
  let current = first;
  const port = Number(new URL(first.baseURL).port);
  const gw: OwnGateway = {
    get iris() {
      return current;
    },
    stop: () => current.server.close(),
    async restart() {
      current = await launchServer({ ...options, port, dataDir: first.dataDir, token: first.token });
    },
  };
  try {
    await run(gw);
  } finally {
    await current.server.close();
    rmSync(first.dataDir, { recursive: true, force: true });
  }
}

/** A gateway whose demo agent streams slowly enough to stop or steer it mid-reply. */
const withSlowGateway = (run: (iris: IrisServer) => Promise<void>) =>
  withGateway({ streamDelayMs: 150 }, (gw) => run(gw.iris));

/** Pairs, asks the slow demo agent for its long reply and returns the reply once it is streaming. */
async function startLongReply(page: Page, iris: IrisServer) {
  await pairAndOpen(page, iris);
  await messageBox(page).fill('/long');
  await messageBox(page).press('Enter');
  await expect(messages(page).getByText('Line 2 of a long answer')).toBeVisible();
  return messages(page).getByRole('article').filter({ hasText: 'Line 2 of a long answer' }).last();
}

/** A row of the app's settings store (drafts are `draft:<lane>`, the command catalog `commands`). */
async function setting(page: Page, key: string): Promise<unknown> {
  return (await storeRows<{ key: string; value: unknown }>(page, 'settings')).find((r) => r.key === key)?.value;
}

const offlineBanner = (page: Page) => page.getByText(/^(Offline|Reconnecting)/).first();

test.describe('desktop', () => {
  test.use({ viewport: DESKTOP });

  test('Enter sends, Shift+Enter makes a new line, and the box empties', async ({ page, iris }) => {
    await pairAndOpen(page, iris);
    const box = messageBox(page);
    await box.click();
    await box.pressSequentially('first line');
    await box.press('Shift+Enter');
    await box.pressSequentially('second line');
    await expect(box).toHaveValue('first line\nsecond line');
    await box.press('Enter');
    await expect(box).toHaveValue('');
    await expect(messages(page).getByRole('article').filter({ hasText: 'first line' }).first()).toContainText(
      'second line',
    );
    // The demo agent answers it.
    await expect(messages(page).getByText('— Iris demo agent').first()).toBeVisible();
    await expect(box).toBeFocused();
  });

  test('messages typed and sent as fast as a person can all go, in order, each once', async ({ page }) => {
    // A gateway written apart that echoes each message and never starts a reply: with the agent at work,
    // a message typed meanwhile rightly goes as a steer, not as a message of its own.
    const hostile = await startHostile();
    try {
      const sent: string[] = [];
      page.on('websocket', (ws) =>
        ws.on('framesent', (f) => {
          if (typeof f.payload !== 'string') return;
          const frame = JSON.parse(f.payload) as { type: string; payload?: { text?: string } };
          if (frame.type === 'message.send') sent.push(frame.payload?.text ?? '');
        }),
      );
      await pairAndOpen(page, hostile);
      const box = messageBox(page);
      await box.click();
      // No wait between them: the next Enter comes while the message before is still being stored.
      for (const text of ['quick one', 'quick two', 'quick three']) {
        await box.pressSequentially(text);
        await box.press('Enter');
      }
      await expect(box).toHaveValue('');
      const mine = messages(page).getByRole('article', { name: /^You, / });
      await expect(mine).toHaveText([/quick one/, /quick two/, /quick three/]);
      await expect(mine.locator('[data-delivery="sent"]')).toHaveCount(3);
      expect(sent).toEqual(['quick one', 'quick two', 'quick three']);
    } finally {
      await hostile.close();
    }
  });

  test('slash autocomplete lists commands with descriptions; arrows and Enter pick /choose', async ({ page, iris }) => {
    await pairAndOpen(page, iris);
    const box = messageBox(page);
    await box.click();
    await box.press('/');
    const menu = page.getByRole('listbox', { name: 'Commands' });
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('option', { name: /\/choose/ })).toContainText(
      'Pick a reasoning effort (choice picker)',
    );
    await expect(menu.getByRole('option', { name: /\/remind/ })).toContainText('<seconds> <text>');
    // The textbox points at the listbox it controls.
    await expect(box).toHaveAttribute('aria-controls', (await menu.getAttribute('id'))!);

    const options = menu.getByRole('option');
    const names = await options.evaluateAll((els) => els.map((el) => el.querySelector('.slash-name')?.textContent));
    const target = names.indexOf('/choose');
    expect(target).toBeGreaterThanOrEqual(0);
    for (let i = 0; i <= target; i++) await box.press('ArrowDown');
    await expect(options.nth(target)).toHaveAttribute('aria-selected', 'true');
    await expect(box).toHaveAttribute('aria-activedescendant', (await options.nth(target).getAttribute('id'))!);
    await box.press('Enter');
    await expect(box).toHaveValue('/choose ');
    await expect(menu).toBeHidden();

    // Sending it opens the choice picker.
    await box.press('Enter');
    await expect(page.getByRole('dialog', { name: 'Reasoning effort' })).toBeVisible();
  });

  test('typing narrows the commands; Tab picks; Escape closes the list', async ({ page, iris }) => {
    await pairAndOpen(page, iris);
    const box = messageBox(page);
    await box.click();
    await box.pressSequentially('/re');
    const menu = page.getByRole('listbox', { name: 'Commands' });
    await expect(menu.getByRole('option')).toHaveCount(1);
    await expect(menu.getByRole('option')).toContainText('/remind');
    await box.press('Tab');
    await expect(box).toHaveValue('/remind ');
    await expect(box).toBeFocused();

    await box.fill('');
    await box.pressSequentially('/c');
    await expect(menu).toBeVisible();
    await box.press('Escape');
    await expect(menu).toBeHidden();
    // With the list closed, Enter sends the text as it is.
    await box.pressSequentially('onfirm');
    await expect(menu).toBeVisible();
    await box.press('Escape');
    await box.press('Enter');
    await expect(page.getByRole('dialog', { name: 'Archive old messages?' })).toBeVisible();
  });

  test('slash autocomplete works offline from the cached catalog', async ({ page }) => {
    await withGateway({}, async (gw) => {
      await pairAndOpen(page, gw.iris);
      // The catalog comes after pairing; stopping the gateway before it is stored leaves nothing to
      // complete from offline (this test's flake): wait until the app has kept it.
      await expect.poll(async () => (await setting(page, 'commands')) !== undefined).toBe(true);
      await gw.stop();
      await expect(offlineBanner(page)).toBeVisible();
      const box = messageBox(page);
      await box.click();
      await box.pressSequentially('/mo');
      // The whole list shows for '/' until '/mo' filters it: wait for the filtered one, not strict-fail on 13.
      await expect(page.getByRole('listbox', { name: 'Commands' }).getByRole('option').first()).toContainText(
        'Choose the model (model picker)',
      );
    });
  });

  test('a draft is kept per lane across a reload and cleared when sent', async ({ page, iris }) => {
    await pairAndOpen(page, iris);
    await messageBox(page).fill('half-written thought');
    // The draft is saved after a pause in typing.
    await expect.poll(() => setting(page, `draft:${LANE}`)).toBe('half-written thought');
    await page.reload();
    await expect(messageBox(page)).toHaveValue('half-written thought');

    // Another lane has its own (empty) draft, and coming back restores this one.
    await page.goto(`${iris.baseURL}/#/c/${encodeURIComponent('web:demo')}`);
    await expect(messageBox(page)).toHaveValue('');
    await page.goBack();
    await expect(messageBox(page)).toHaveValue('half-written thought');

    await page.getByRole('button', { name: 'Send' }).click();
    await expect(messageBox(page)).toHaveValue('');
    await expect.poll(() => setting(page, `draft:${LANE}`)).toBeUndefined();
    await page.reload();
    await expect(messageBox(page)).toBeVisible();
    await expect(messageBox(page)).toHaveValue('');
  });

  test('sending works offline: the message waits in the outbox and goes out on reconnect', async ({ page }) => {
    await withGateway({}, async (gw) => {
      await pairAndOpen(page, gw.iris);
      await gw.stop();
      await expect(offlineBanner(page)).toBeVisible();
      await messageBox(page).fill('written on the train');
      await messageBox(page).press('Enter');
      await expect(messageBox(page)).toHaveValue('');
      await expect(messages(page).getByRole('article').filter({ hasText: 'written on the train' })).toBeVisible();
      await gw.restart();
      await expect(messages(page).getByText('— Iris demo agent').first()).toBeVisible({ timeout: 45_000 });
    });
  });

  test('Stop during a streamed reply ends it early, and the reply says Stopped', async ({ page }) => {
    await withSlowGateway(async (iris) => {
      await pairAndOpen(page, iris);
      await messageBox(page).fill('/long');
      await messageBox(page).press('Enter');
      const stop = page.getByRole('button', { name: 'Stop' });
      await expect(stop).toBeVisible();
      await expect(messages(page).getByText('Line 2 of a long answer')).toBeVisible();
      await stop.click();
      await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
      const reply = messages(page).getByRole('article').filter({ hasText: 'Line 2 of a long answer' }).last();
      // The turn's last frame (agent.idle, after message.stop) applied: a gateway that kept streaming
      // would have sent the rest of the reply before it. And the composer can show Send before the
      // list has drawn the final reply (its model line comes with it): reading the text while the
      // bubble was still busy was this test's flake.
      await expect
        .poll(
          async () =>
            (await storeRows<{ lane: string; busy: boolean }>(page, 'lanes')).find((l) => l.lane === LANE)?.busy,
        )
        .toBe(false);
      await expect(reply).toHaveAttribute('aria-busy', 'false');
      const stoppedAt = await reply.innerText();
      // The reply keeps the text streamed so far and stops there: it grows no more.
      await expect(messages(page).getByText('Line 2 of a long answer').first()).toBeVisible();
      expect(await reply.innerText()).toBe(stoppedAt);
      await expect(messages(page).getByText('Line 40 of a long answer')).toHaveCount(0);
      // It says it was stopped, after a reload too (and nothing else in the lane does).
      await expect(reply.getByText('Stopped', { exact: true })).toBeVisible();
      await page.reload();
      const again = messages(page).getByRole('article').filter({ hasText: 'Line 2 of a long answer' }).last();
      await expect(again.getByText('Stopped', { exact: true })).toBeVisible();
      await expect(messages(page).getByText('Stopped', { exact: true })).toHaveCount(1);
    });
  });

  test('a reply stopped on another device says Stopped here too, and on a device paired later', async ({
    page,
    browser,
  }) => {
    await withSlowGateway(async (iris) => {
      await pairAndOpen(page, iris);
      const other = await TestClient.paired(iris.gatewayUrl, { token: iris.token, device_name: 'other device' });
      try {
        const from = other.mark();
        await other.request('message.send', { text: '/long', client_id: 'stop-elsewhere' }, { chat_id: LANE });
        await other.waitFor((f) => f.type === 'message.update' && String(f.payload.text).includes('Line 2'), {
          from,
        });
        await other.request('agent.stop', {}, { chat_id: LANE });
      } finally {
        await other.close();
      }
      const reply = messages(page).getByRole('article').filter({ hasText: 'Line 2 of a long answer' }).last();
      await expect(reply.getByText('Stopped', { exact: true })).toBeVisible();
      await expect(reply).toHaveAttribute('aria-busy', 'false');

      // A device paired after it reads the reply from history: stopped there too.
      const later = await browser.newPage({ viewport: page.viewportSize()! });
      try {
        await pairAndOpen(later, iris);
        const kept = messages(later).getByRole('article').filter({ hasText: 'Line 2 of a long answer' }).last();
        await expect(kept.getByText('Stopped', { exact: true })).toBeVisible();
        await expect(messages(later).getByText('Stopped', { exact: true })).toHaveCount(1);
      } finally {
        await later.close();
      }
    });
  });

  test('a reply cut off by the network says it is paused, not writing, and finishes once back online', async ({
    page,
    context,
  }) => {
    await withSlowGateway(async (iris) => {
      const reply = await startLongReply(page, iris);
      await expect(reply).toHaveAttribute('aria-busy', 'true');
      await expect(reply.getByText('Paused until the gateway is back')).toHaveCount(0);

      await context.setOffline(true);
      await expect(reply.getByText('Paused until the gateway is back')).toBeVisible();
      await expect(reply.getByText('Writing…')).toHaveCount(0);
      // No caret, no spinner: nothing in it moves as if text were still coming.
      expect(await reply.evaluate((el) => el.getAnimations({ subtree: true }).length)).toBe(0);
      await page.screenshot({ path: '/tmp/look/reply-paused-desktop.png' });

      await context.setOffline(false);
      await expect(reply).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
      await expect(reply.getByText('Line 40 of a long answer')).toBeVisible();
      await expect(reply.getByText('Paused until the gateway is back')).toHaveCount(0);
    });
  });

  test('a file attached while the agent works goes as a message (queued), not a steer that leaves it behind', async ({
    page,
  }) => {
    await withSlowGateway(async (iris) => {
      const reply = await startLongReply(page, iris);
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: 'Attach' }).click();
      await (await chooser).setFiles([{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('my notes') }]);
      await messageBox(page).fill('here are my notes');
      // While the reply still streams, the main button sends (a steer is text only); Stop stays beside it.
      await expect(reply).toHaveAttribute('aria-busy', 'true');
      const button = page.locator('form.composer button[type="submit"]');
      await expect(button).toHaveAccessibleName('Send');
      await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
      await expect(reply).toHaveAttribute('aria-busy', 'true');
      await button.click();
      await expect(page.getByRole('list', { name: 'Attachments' })).toHaveCount(0);
      // Answered after the long reply, as the next message, with its file.
      await expect(messages(page).getByText('Received: notes.txt')).toBeVisible({ timeout: 30_000 });
      await expect(messages(page).getByText('Steer:')).toHaveCount(0);
    });
  });

  test('a reply cut off by a refused pairing says to pair again, not to wait', async ({ page }) => {
    await withSlowGateway(async (iris) => {
      // The app's socket, relayed, so the gateway can be made to refuse this device mid-reply.
      let toPage: ((text: string) => void) | undefined;
      await page.routeWebSocket(/\/ws$/, (ws) => {
        ws.connectToServer();
        toPage = (text) => ws.send(text);
      });
      const reply = await startLongReply(page, iris);
      toPage!(JSON.stringify({ v: 1, type: 'error', payload: { code: 'auth', message: 'This device was removed.' } }));
      await expect(reply.getByText('Paused: pair this device again to go on')).toBeVisible();
      await expect(reply.getByText('Paused until the gateway is back')).toHaveCount(0);
      await expect(reply).toHaveAttribute('aria-busy', 'true');
      await expect(page.getByRole('link', { name: 'Pair again' })).toBeVisible();
    });
  });

  test('Stop with words in the box ends the reply and keeps the words, to send once it is over', async ({ page }) => {
    await withSlowGateway(async (iris) => {
      const reply = await startLongReply(page, iris);
      await messageBox(page).fill('and then the weekend');
      // The main button steers now; Stop is still there, at the end of the row where it was.
      await expect(page.getByRole('button', { name: 'Steer' })).toBeVisible();
      const stop = page.getByRole('button', { name: 'Stop' });
      await expect(stop).toBeVisible();
      const steerBox = (await page.getByRole('button', { name: 'Steer' }).boundingBox())!;
      const stopBox = (await stop.boundingBox())!;
      expect(stopBox.x).toBeGreaterThan(steerBox.x);
      await stop.click();
      await expect(reply.getByText('Stopped', { exact: true })).toBeVisible();
      await expect(reply).toHaveAttribute('aria-busy', 'false');
      await expect(messageBox(page)).toHaveValue('and then the weekend');
      await expect(messages(page).getByText('Steer:')).toHaveCount(0);
      // Over: one button again, and it sends what waited in the box as a message of its own.
      await expect(stop).toHaveCount(0);
      await page.getByRole('button', { name: 'Send' }).click();
      await expect(messageBox(page)).toHaveValue('');
      await expect(messages(page).getByRole('article').filter({ hasText: 'and then the weekend' })).toBeVisible();
      await expect(messages(page).getByText('Line 40 of a long answer')).toHaveCount(0);
    });
  });

  test('a message while the agent works is a steer, labelled so, and the reply acknowledges it', async ({ page }) => {
    await withSlowGateway(async (iris) => {
      await pairAndOpen(page, iris);
      await messageBox(page).fill('/long');
      await messageBox(page).press('Enter');
      await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
      await expect(messageBox(page)).toHaveAttribute('placeholder', 'Tell it what to change…');
      await messageBox(page).fill('keep it short');
      const steer = page.getByRole('button', { name: 'Steer' });
      await expect(steer).toBeVisible();
      await page.screenshot({ path: '/tmp/look/composer-steer-desktop.png' });
      await steer.click();
      await expect(messageBox(page)).toHaveValue('');
      await expect(messages(page).getByText('adjusting to "keep it short"')).toBeVisible();
    });
  });

  test('replying: the composer shows the quoted message, can cancel, and sends reply_to', async ({ page, iris }) => {
    const seeded = iris.server.gateway!.store.conversations.append({
      lane: LANE,
      role: 'assistant',
      text: 'The build is green again.\nSecond line.',
      ts: Date.now() - 60_000,
    });
    const frames: { type: string; payload: { reply_to?: string; text?: string } }[] = [];
    page.on('websocket', (ws) =>
      ws.on('framesent', (f) => typeof f.payload === 'string' && frames.push(JSON.parse(f.payload))),
    );
    await pairAndOpen(page, iris);
    const article = messages(page).getByRole('article').filter({ hasText: 'The build is green again.' });
    await article.hover();
    await article.getByRole('button', { name: 'Reply' }).click();
    const replying = page.locator('.composer-reply');
    await expect(replying).toContainText('Replying to');
    await expect(replying).toContainText('The build is green again.');
    await page.getByRole('button', { name: 'Cancel reply' }).click();
    await expect(replying).toBeHidden();

    await article.hover();
    await article.getByRole('button', { name: 'Reply' }).click();
    await expect(replying).toBeVisible();
    await expect(messageBox(page)).toBeFocused();
    await page.screenshot({ path: '/tmp/look/composer-replying-desktop.png' });
    await messageBox(page).fill('Great, thanks!');
    await messageBox(page).press('Enter');
    await expect(replying).toBeHidden();
    await expect
      .poll(
        () => frames.find((f) => f.type === 'message.send' && f.payload.text === 'Great, thanks!')?.payload.reply_to,
      )
      .toBe(seeded.message_id);
  });

  test('the composer has no serious accessibility problems, light and dark', async ({ page, iris }) => {
    await pairAndOpen(page, iris);
    await messageBox(page).click();
    await messageBox(page).press('/');
    await expect(page.getByRole('listbox', { name: 'Commands' })).toBeVisible();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const results = await new AxeBuilder({ page }).include('.composer').analyze();
      const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    }
  });
});

test.describe('phone', () => {
  test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

  test('Enter makes a new line; the Send button sends', async ({ page, iris }) => {
    await pairAndOpen(page, iris);
    const box = messageBox(page);
    await box.click();
    await box.pressSequentially('one');
    await box.press('Enter');
    await box.pressSequentially('two');
    await expect(box).toHaveValue('one\ntwo');
    await expect(messages(page).getByRole('article').filter({ hasText: 'one' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(box).toHaveValue('');
    await expect(messages(page).getByRole('article').filter({ hasText: 'one' }).first()).toContainText('two');
  });

  test('the box grows with its text up to a limit', async ({ page, iris }) => {
    await pairAndOpen(page, iris);
    const box = messageBox(page);
    const oneLine = (await box.boundingBox())!.height;
    await box.fill('a\nb\nc\nd');
    const fourLines = (await box.boundingBox())!.height;
    expect(fourLines).toBeGreaterThan(oneLine + 30);
    await box.fill(Array.from({ length: 60 }, (_, i) => `line ${i}`).join('\n'));
    const many = (await box.boundingBox())!.height;
    expect(many).toBeLessThanOrEqual(PHONE.height * 0.4 + 1);
  });
});

test('screenshots: composer with the command list, phone and desktop, light and dark', async ({ page, iris }) => {
  await pair(page, iris);
  for (const [name, size] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    await page.setViewportSize(size);
    await openLane(page, iris);
    await messageBox(page).fill('');
    await messageBox(page).click();
    await messageBox(page).press('/');
    await expect(page.getByRole('listbox', { name: 'Commands' })).toBeVisible();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      // Transitions run to their end before the picture is taken (no pause for the new colours).
      await page.screenshot({ path: `/tmp/look/composer-${name}-${scheme}.png`, animations: 'disabled' });
    }
  }
});

test.describe('on a first visit', () => {
  // The service worker, once it has installed, would serve the chunk from its cache past the route.
  test.use({ serviceWorkers: 'block' });

  test('a send whose code cannot be fetched says so in words, keeps the text, and goes once it can', async ({
    page,
    iris,
  }) => {
    // The command layer loads beside the app frame (client/lazyCommands.ts); here its file never comes.
    const commandsCode = /\/commands-[^/]*\.js$/;
    await page.route(commandsCode, (route) => route.abort('internetdisconnected'));
    await pairAndOpen(page, iris);
    await messageBox(page).fill('hello while cut off');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.locator('.composer-error')).toHaveText(/not on this device yet/);
    await expect(messageBox(page)).toHaveValue('hello while cut off');
    await expect(messages(page).getByText('hello while cut off')).toHaveCount(0);
    // Connected again: the same Send sends it.
    await page.unroute(commandsCode);
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(messages(page).getByRole('article', { name: /^You/ }).getByText('hello while cut off')).toBeVisible();
    await expect(page.locator('.composer-error')).toHaveCount(0);
  });

  test('a lane opened while the commands’ code cannot be fetched shows its history once it can, with no reconnect', async ({
    page,
    iris,
  }) => {
    iris.server.gateway!.store.conversations.append({
      lane: LANE,
      role: 'assistant',
      text: 'Written before this device paired.',
      ts: Date.now() - 60_000,
    });
    const commandsCode = /\/commands-[^/]*\.js$/;
    await page.route(commandsCode, (route) => route.abort('internetdisconnected'));
    await pairAndOpen(page, iris);
    const earlier = messages(page).getByText('Written before this device paired.');
    await page.waitForTimeout(1000);
    await expect(earlier).toHaveCount(0); // its page is asked for by a command, whose code has not come
    await page.unroute(commandsCode);
    await expect(earlier).toBeVisible({ timeout: 10_000 });
  });
});
