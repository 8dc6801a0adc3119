// Issue 4, "Pickers": every picker kind from the demo agent, answered in its dialog, and the agent's answer in the lane.
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { TestClient } from '../server/gateway/testclient';
import {
  LANE,
  expect,
  messageBox,
  messages,
  openLane,
  pair,
  pairAndOpen,
  settled,
  speakForGateway,
  test,
} from './support';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** Sends a slash command and returns the dialog it opens. */
async function ask(page: Page, command: string, title: string): Promise<Locator> {
  await messageBox(page).fill(command);
  await page.getByRole('button', { name: 'Send' }).click();
  const dialog = page.getByRole('dialog', { name: title });
  await expect(dialog).toBeVisible();
  // Focus moves into the dialog, not onto an answer.
  await expect.poll(() => dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe('BUTTON');
  return dialog;
}

/** The agent's reply in the lane (the last article with this text). */
const reply = (page: Page, text: string) => messages(page).getByRole('article').filter({ hasText: text }).last();

async function noSeriousA11yIssues(page: Page, selector: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const results = await new AxeBuilder({ page }).include(selector).analyze();
    const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(bad.map((v) => `${scheme} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: null });
}

test.use({ viewport: DESKTOP });

test('model picker: providers with their models, the current one marked; choosing answers provider:model', async ({
  page,
  iris,
}) => {
  await pairAndOpen(page, iris);
  const dialog = await ask(page, '/model', 'Choose a model');
  await expect(dialog.getByRole('heading', { name: 'Demo' })).toBeVisible();
  await expect(dialog.getByRole('heading', { name: 'Local' })).toBeVisible();
  const current = dialog.getByRole('button', { name: /Iris Demo 1/ });
  await expect(current).toContainText('Current');
  await expect(current).toHaveAttribute('aria-current', 'true');
  await noSeriousA11yIssues(page, 'dialog[open]');
  await dialog.getByRole('button', { name: 'Echo Small' }).click();
  await expect(dialog).toBeHidden();
  await expect(reply(page, 'Model set to')).toContainText('Echo Small');
  await expect(reply(page, 'Model set to')).toContainText('local:echo-small');
  // Settings names the model now in use, without a reload.
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByText('Iris demo agent · model echo-small')).toBeVisible();
});

test('choice picker: the current choice is marked; the chosen value is answered once', async ({ page, iris }) => {
  await pairAndOpen(page, iris);
  const frames: string[] = [];
  page.on('websocket', (ws) => ws.on('framesent', (f) => typeof f.payload === 'string' && frames.push(f.payload)));
  await page.reload();
  await expect(messageBox(page)).toBeVisible();
  const dialog = await ask(page, '/choose', 'Reasoning effort');
  await expect(dialog.getByRole('button', { name: /Medium/ })).toContainText('Current');
  await noSeriousA11yIssues(page, 'dialog[open]');
  const high = dialog.getByRole('button', { name: 'High' });
  // A double click still answers once.
  await high.dblclick();
  await expect(dialog).toBeHidden();
  await expect(reply(page, 'Reasoning effort set to')).toContainText('High');
  const selects = frames
    .map((f) => JSON.parse(f) as { type: string; payload: { value?: string } })
    .filter((f) => f.type === 'picker.select');
  expect(selects.map((f) => f.payload.value)).toEqual(['high']);
});

test('clarify picker: answered by a choice', async ({ page, iris }) => {
  await pairAndOpen(page, iris);
  const dialog = await ask(page, '/clarify', 'Which format should the summary use?');
  await expect(dialog.getByRole('textbox', { name: 'Or answer in your own words' })).toBeVisible();
  await noSeriousA11yIssues(page, 'dialog[open]');
  await dialog.getByRole('button', { name: 'A table' }).click();
  await expect(dialog).toBeHidden();
  await expect(reply(page, 'you answered')).toContainText('table');
});

test('clarify picker: answered in free text (empty is refused)', async ({ page, iris }) => {
  await pairAndOpen(page, iris);
  const dialog = await ask(page, '/clarify', 'Which format should the summary use?');
  await dialog.getByRole('button', { name: 'Send answer' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Type an answer, or pick one above.');
  await dialog
    .getByRole('textbox', { name: 'Or answer in your own words' })
    .fill('Two short paragraphs, <b>please</b>');
  await dialog.getByRole('button', { name: 'Send answer' }).click();
  await expect(dialog).toBeHidden();
  await expect(reply(page, 'you answered')).toContainText('Two short paragraphs, <b>please</b>');
});

test('clarify picker: its answer box has no resize handle and grows with the answer', async ({ page, iris }) => {
  await pairAndOpen(page, iris);
  const dialog = await ask(page, '/clarify', 'Which format should the summary use?');
  const box = dialog.getByRole('textbox', { name: 'Or answer in your own words' });
  expect(await box.evaluate((el) => getComputedStyle(el).resize)).toBe('none');
  const before = (await box.boundingBox())!.height;
  await box.fill(['One', 'Two', 'Three', 'Four', 'Five'].join('\n'));
  await expect.poll(async () => (await box.boundingBox())!.height).toBeGreaterThan(before);
  // Every line shows without scrolling inside the box.
  expect(await box.evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);
});

test('approval picker: the command in a code block with its description; "Once" approves', async ({ page, iris }) => {
  await pairAndOpen(page, iris);
  const dialog = await ask(page, '/approve git push --force <img src=x onerror=alert(1)>', 'Approve this command?');
  await expect(dialog.locator('pre code')).toHaveText('git push --force <img src=x onerror=alert(1)>');
  await expect(dialog.locator('img')).toHaveCount(0);
  await expect(dialog).toContainText('The demo agent wants to run this shell command.');
  for (const name of ['Once', 'This session', 'Always', 'Deny'])
    await expect(dialog.getByRole('button', { name, exact: true })).toBeVisible();
  await noSeriousA11yIssues(page, 'dialog[open]');
  await dialog.getByRole('button', { name: 'Once' }).click();
  await expect(dialog).toBeHidden();
  await expect(reply(page, 'Approved once')).toContainText('git push --force');
});

test('approval picker: "Deny" denies', async ({ page, iris }) => {
  await pairAndOpen(page, iris);
  const dialog = await ask(page, '/approve rm -rf /tmp/cache', 'Approve this command?');
  await dialog.getByRole('button', { name: 'Deny' }).click();
  await expect(dialog).toBeHidden();
  await expect(reply(page, 'Denied')).toContainText('rm -rf /tmp/cache');
});

test('confirm picker: title, message and Yes', async ({ page, iris }) => {
  await pairAndOpen(page, iris);
  const dialog = await ask(page, '/confirm', 'Archive old messages?');
  await expect(dialog).toContainText('archive messages older than 30 days');
  await noSeriousA11yIssues(page, 'dialog[open]');
  await dialog.getByRole('button', { name: 'Yes' }).click();
  await expect(dialog).toBeHidden();
  await expect(reply(page, 'Confirmed')).toContainText('Archive old messages?');
});

test('Escape closes a picker unanswered; the Pending question chip reopens it; it survives a reload', async ({
  page,
  iris,
}) => {
  await pairAndOpen(page, iris);
  let dialog = await ask(page, '/choose', 'Reasoning effort');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  const chip = page.getByRole('button', { name: /Pending question/ });
  await expect(chip).toBeVisible();
  await expect(chip).toContainText('Reasoning effort');
  await page.screenshot({ path: '/tmp/look/picker-pending-chip-desktop.png' });
  // On a narrow phone a long title is the part that gives way: "Pending question" stays on one line.
  await page.setViewportSize({ width: 360, height: 740 });
  const lines = await chip.evaluate((el) => {
    const [label, title] = [...el.querySelectorAll('span')].slice(1).map((s) => s.getBoundingClientRect().height);
    return { label, title };
  });
  expect(lines.label).toBeLessThanOrEqual(lines.title! + 1);
  await page.screenshot({ path: '/tmp/look/picker-pending-chip-phone.png' });
  await page.setViewportSize(DESKTOP);
  await chip.click();
  await expect(dialog).toBeVisible();

  // Still pending after a reload: it opens again and can be answered.
  await page.reload();
  dialog = page.getByRole('dialog', { name: 'Reasoning effort' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Not now' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: /Pending question/ }).click();
  await dialog.getByRole('button', { name: 'Low' }).click();
  await expect(dialog).toBeHidden();
  await expect(reply(page, 'Reasoning effort set to')).toContainText('Low');
  await expect(page.getByRole('button', { name: /Pending question/ })).toHaveCount(0);
  await page.reload();
  await expect(messageBox(page)).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('a question left for a new message stays in the conversation where it was asked, closed', async ({
  page,
  iris,
}) => {
  await pairAndOpen(page, iris);
  const dialog = await ask(page, '/clarify', 'Which format should the summary use?');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  // The person writes something else instead: the agent moves on, and the question is no longer asked.
  await messageBox(page).fill('Never mind, just say hi');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(reply(page, 'Echo: Never mind, just say hi')).toBeVisible();
  await expect(page.getByRole('button', { name: /Pending question/ })).toHaveCount(0);
  const card = messages(page).getByRole('note', { name: 'Which format should the summary use? → Closed' });
  await expect(card).toBeVisible();
  const placed = () =>
    messages(page).evaluate((log) =>
      [...log.querySelectorAll('article.msg, [role="note"]')]
        .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)
        .map((el) =>
          el.getAttribute('role') === 'note'
            ? 'question'
            : (el.textContent ?? '').includes('Never mind')
              ? 'mine'
              : 'other',
        ),
    );
  // After the command that asked it, before the message that left it.
  const order = await placed();
  expect(order.indexOf('question')).toBeLessThan(order.indexOf('mine'));
  await page.screenshot({ path: '/tmp/look/picker-closed-card.png' });
  await page.reload();
  await expect(card).toBeVisible();
  expect(await placed()).toEqual(order);
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('several questions closed unanswered wait behind one chip, and open oldest first, one after another', async ({
  page,
  iris,
}) => {
  // Questions asked in a row, the agent waiting on all of them (spec §11: they stay open until it moves
  // on), spoken for the gateway on the app's own socket.
  const speak = await speakForGateway(page);
  await pairAndOpen(page, iris);
  const say = (type: string, payload: object) => speak({ type, payload });
  say('picker.confirm', { picker_id: 'q1', title: 'Archive old messages?' });
  say('picker.choice', {
    picker_id: 'q2',
    title: 'Reasoning effort',
    choices: [{ value: 'low', label: 'Low' }],
  });
  say('picker.clarify', { picker_id: 'q3', question: 'Which format should the summary use?' });
  const titles = ['Archive old messages?', 'Reasoning effort', 'Which format should the summary use?'];
  const closeEach = async () => {
    // Closing one leads to the next, oldest first.
    for (const title of titles) {
      await expect(page.getByRole('dialog', { name: title })).toBeVisible();
      await page.keyboard.press('Escape');
    }
  };
  await closeEach();
  // One chip for the three, not three chips over the conversation.
  const chips = page.locator('.picker-chip');
  await expect(page.getByRole('button', { name: '3 pending questions' })).toBeVisible();
  await expect(chips).toHaveCount(1);
  // In the conversation's column, over the message box, not at the window's edge of the lane.
  const chipBox = (await chips.boundingBox())!;
  const composerBox = (await page.locator('.composer-row').boundingBox())!;
  expect(Math.abs(chipBox.x - composerBox.x)).toBeLessThan(2);
  await page.getByRole('button', { name: '3 pending questions' }).click();
  await closeEach();
  await expect(chips).toHaveCount(1);

  // A new question opens at once over the chip; closed, it joins the others behind it.
  say('picker.confirm', { picker_id: 'q4', title: 'Send the report now?' });
  await expect(page.getByRole('dialog', { name: 'Send the report now?' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: '4 pending questions' })).toBeVisible();
  await expect(chips).toHaveCount(1);
});

test('screenshots: each picker kind, phone (bottom sheet) and desktop, light and dark', async ({ page, iris }) => {
  await pair(page, iris);
  const kinds = [
    ['model', '/model', 'Choose a model'],
    ['choice', '/choose', 'Reasoning effort'],
    ['clarify', '/clarify', 'Which format should the summary use?'],
    ['approval', '/approve npm publish --access public', 'Approve this command?'],
    ['confirm', '/confirm', 'Archive old messages?'],
  ] as const;
  for (const [kind, command, title] of kinds) {
    await page.setViewportSize(DESKTOP);
    await openLane(page, iris);
    const dialog = await ask(page, command, title);
    for (const [name, size] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      await page.setViewportSize(size);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await settled(page);
        await page.screenshot({ path: `/tmp/look/picker-${kind}-${name}-${scheme}.png` });
      }
    }
    await page.emulateMedia({ colorScheme: null });
    // Leave nothing pending for the next kind.
    const answer = { model: 'Iris Demo 2 (fast)', choice: 'Low', clarify: 'Prose', approval: 'Deny', confirm: 'No' }[
      kind
    ];
    await dialog.getByRole('button', { name: answer, exact: true }).click();
    await expect(dialog).toBeHidden();
  }
});

test('a browser paired while a question waits is asked it too, and its answer is the one taken', async ({
  page,
  iris,
}) => {
  const phone = await TestClient.paired(iris.gatewayUrl, { token: iris.token, device_name: 'first phone' });
  await phone.request('message.send', { text: '/confirm', client_id: 'c-confirm' }, { chat_id: LANE });
  await phone.waitType('picker.confirm');
  await pairAndOpen(page, iris);
  const dialog = page.getByRole('dialog', { name: 'Archive old messages?' });
  const chip = page.getByRole('button', { name: /Pending question/ });
  await expect(dialog.or(chip)).toBeVisible();
  if (await chip.isVisible()) await chip.click();
  await dialog.getByRole('button', { name: 'Yes', exact: true }).click();
  await expect(reply(page, 'Confirmed: Archive old messages?')).toBeVisible();
  await phone.close();
});

test('a question answered on another device shows that answer here, live and after a reload', async ({
  page,
  iris,
}) => {
  await pairAndOpen(page, iris);
  const phone = await TestClient.paired(iris.gatewayUrl, { token: iris.token, device_name: 'phone' });
  try {
    await phone.request('message.send', { text: '/choose', client_id: 'c-choose' }, { chat_id: LANE });
    const asked = await phone.waitType('picker.choice');
    const dialog = page.getByRole('dialog', { name: 'Reasoning effort' });
    const chip = page.getByRole('button', { name: /Pending question/ });
    await expect(dialog.or(chip)).toBeVisible();
    await phone.request('picker.select', { picker_id: asked.payload.picker_id, value: 'low' });
  } finally {
    await phone.close();
  }
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Pending question/ })).toHaveCount(0);
  // Not "Closed": the answer the phone gave, in the words of this browser's card.
  const card = messages(page).getByRole('note', { name: 'Reasoning effort → Low' });
  await expect(card).toBeVisible();
  await page.reload();
  await expect(card).toBeVisible();
});
