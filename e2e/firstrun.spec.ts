// Issue 16, point 9: an empty conversation greets with the agent's name and three starts from the
// command catalog; an answered question stays in the conversation as a compact card.
import type { Page } from '@playwright/test';
import { expect, test, DESKTOP, channelsNav, pageTitle, pairAndOpen, sendMessage } from './support';

test.use({ viewport: DESKTOP });

function log(page: Page) {
  return page.getByRole('log', { name: 'Messages' });
}

async function newChannel(page: Page, name: string): Promise<void> {
  await channelsNav(page).getByRole('button', { name: 'New channel' }).click();
  const dialog = page.getByRole('dialog', { name: 'New channel' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(pageTitle(page)).toHaveText(name);
}

test('a new conversation greets with the agent, offers three commands from the catalog, and says "/" lists them', async ({
  page,
  iris,
}) => {
  await pairAndOpen(page, iris);
  await newChannel(page, 'Fresh start');
  const empty = page.getByRole('region', { name: 'Iris demo agent is here' });
  await expect(empty).toBeVisible();
  await expect(empty).toContainText('Type / in the message box to see every command.');
  await expect(page.getByText('This is the beginning of the conversation.')).toHaveCount(0);
  // The first three of the demo's catalog that need nothing typed after them.
  const suggestions = empty.getByRole('button');
  await expect(suggestions).toHaveCount(3);
  await expect(suggestions.nth(0)).toHaveAccessibleName(/^\/help List what the demo agent can do/);
  await expect(suggestions.nth(1)).toHaveAccessibleName(/^\/model/);
  await expect(suggestions.nth(2)).toHaveAccessibleName(/^\/choose/);

  await suggestions.nth(0).click();
  await expect(log(page).getByRole('article', { name: /^Iris demo agent, / })).toContainText('Demo commands');
  await expect(empty).toHaveCount(0);
});

test('an answered question stays in the conversation as a card: "Approval: make deploy --prod → Approved once"', async ({
  page,
  iris,
}) => {
  await pairAndOpen(page, iris);
  await sendMessage(page, '/approve make deploy --prod');
  const dialog = page.getByRole('dialog', { name: 'Approve this command?' });
  await dialog.getByRole('button', { name: 'Once' }).click();
  await expect(dialog).toBeHidden();
  const card = log(page).getByRole('note', { name: 'Approval: make deploy --prod → Approved once' });
  await expect(card).toBeVisible();
  await expect(card).toHaveText('Approval: make deploy --prod→Approved once');
  // Where it was asked: after my command, before the agent's answer to it.
  const reply = log(page)
    .getByRole('article', { name: /^Iris demo agent, / })
    .filter({ hasText: 'Approved once: make deploy --prod' });
  await expect(reply).toBeVisible();
  const mine = log(page)
    .getByRole('article', { name: /^You, / })
    .filter({ hasText: '/approve make deploy --prod' });
  const [mineBox, cardBox, replyBox] = await Promise.all([mine.boundingBox(), card.boundingBox(), reply.boundingBox()]);
  expect(mineBox!.y).toBeLessThan(cardBox!.y);
  expect(cardBox!.y).toBeLessThan(replyBox!.y);
  // Compact: one line on a desktop.
  expect(cardBox!.height).toBeLessThan(48);

  await sendMessage(page, '/confirm');
  const confirm = page.getByRole('dialog', { name: 'Archive old messages?' });
  await confirm.getByRole('button', { name: 'No', exact: true }).click();
  await expect(log(page).getByRole('note', { name: 'Archive old messages? → No' })).toBeVisible();

  // Still there after a reload: the question and its answer are part of the conversation.
  await page.reload();
  await expect(log(page).getByRole('note', { name: 'Approval: make deploy --prod → Approved once' })).toBeVisible();
  await expect(log(page).getByRole('note', { name: 'Archive old messages? → No' })).toBeVisible();
});
