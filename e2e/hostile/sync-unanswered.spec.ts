// A gateway that takes the connection but does not answer its sync (a stuck replay, a bug): until it
// does, nothing is sent or loaded, and the banner says why instead of a message that waits in silence.
import { expect, test } from '@playwright/test';
import { pairAndOpen } from '../support';
import { startHostile, type HostileSetup } from './hostile-gateway';

let hostile: HostileSetup | undefined;
test.afterEach(async () => {
  await hostile?.close();
  hostile = undefined;
});

test('a sync the gateway does not answer: the banner says it has not answered, and goes once it does', async ({
  page,
}) => {
  let answerSync: (() => void) | undefined;
  hostile = await startHostile({
    onRequest: (frame, reply) => {
      if (frame.type !== 'sync') return false;
      answerSync = () => reply({ type: 'sync.done', id: frame.id, payload: { cursor: 0 } });
      return true;
    },
  });
  await pairAndOpen(page, hostile);
  await page.getByRole('textbox', { name: 'Message' }).fill('anyone there?');
  await page.getByRole('button', { name: 'Send' }).click();
  const banner = page.getByRole('status').filter({ hasText: 'the gateway has not answered yet' });
  await expect(banner).toHaveText(
    'Connected, but the gateway has not answered yet. Messages are sent and loaded once it does.',
    { timeout: 15_000 },
  );
  const mine = page.getByRole('log', { name: 'Messages' }).getByRole('article', { name: /^You, / });
  await expect(mine).toContainText('Pending');

  answerSync!();
  await expect(banner).toHaveCount(0);
  await expect(mine.locator('[data-delivery="sent"], [data-delivery="read"]')).toBeVisible();
});
