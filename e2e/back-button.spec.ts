// Chromium has close requests (CloseWatcher): Android's Back closes a dialog or a menu and the page stays
// (back.spec.ts covers browsers without them). A desktop's Back *button* is no close request but a history
// step: the page goes back, and what was open over the page it left closes with it, not left floating
// over the page before.
import { DESKTOP, channelAction, expect, openChannel, pageTitle, pairAndOpen, sendMessage, test } from './support';

const GENERAL = /#\/c\/web%3Adefault$/;

test.use({ viewport: DESKTOP });

test('the Back button with a dialog open goes back a page, and the dialog closes with the page it was over', async ({
  page,
  iris,
}) => {
  expect(await page.evaluate(() => 'CloseWatcher' in window)).toBe(true);
  await pairAndOpen(page, iris);
  await openChannel(page, 'Demo');
  await channelAction(page, 'Demo', 'Rename');
  const rename = page.getByRole('dialog', { name: 'Rename Demo' });
  await expect(rename).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(GENERAL);
  await expect(pageTitle(page)).toHaveText('General');
  await expect(rename).toHaveCount(0);
  // The page is usable: nothing modal is left over it.
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeEditable();
  await page.getByRole('textbox', { name: 'Message' }).fill('still here');
});

test('the Back button with a question open goes back a page; the question asks again in its lane', async ({
  page,
  iris,
}) => {
  await pairAndOpen(page, iris);
  await openChannel(page, 'Demo');
  await sendMessage(page, '/confirm');
  const question = page.getByRole('dialog', { name: 'Archive old messages?' });
  await expect(question).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(GENERAL);
  await expect(question).toHaveCount(0);
  await page.goForward();
  await expect(pageTitle(page)).toHaveText('Demo');
  await expect(question).toBeVisible();
});
