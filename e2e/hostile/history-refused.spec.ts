// A gateway that refuses history (an error, or none of it kept): the lane says its messages could not
// be loaded where they would appear, instead of staying blank, and Try again loads them once the
// gateway answers.
import { expect, test } from '@playwright/test';
import { pairAndOpen } from '../support';
import { startHostile, type HostileSetup } from './hostile-gateway';

let hostile: HostileSetup | undefined;
test.afterEach(async () => {
  await hostile?.close();
  hostile = undefined;
});

test('history refused: the lane says messages could not be loaded, and Try again loads them once the gateway answers', async ({
  page,
}) => {
  let refuse = true;
  hostile = await startHostile({
    onRequest: (frame, reply) => {
      if (frame.type !== 'history') return false;
      if (refuse) {
        reply({ type: 'error', id: frame.id, payload: { code: 'internal', message: 'The history store is down.' } });
      } else {
        reply({
          type: 'history',
          id: frame.id,
          chat_id: frame.chat_id,
          payload: {
            messages: [{ message_id: 'h-1', role: 'assistant', text: 'Kept in the history', ts: Date.now() - 60_000 }],
            has_more: false,
          },
        });
      }
      return true;
    },
  });
  await pairAndOpen(page, hostile);
  const log = page.getByRole('log', { name: 'Messages' });
  // An empty lane has no older messages: none of its messages could be loaded.
  await expect(log.getByText(/^Messages could not be loaded\./)).toBeVisible();
  await expect(log.getByText('This is the beginning of the conversation.')).toHaveCount(0);

  // A live message is no history page: the lane still says older ones could not be loaded.
  hostile.gateway.emit({
    type: 'message',
    chat_id: 'web:default',
    payload: { message_id: 'live-1', role: 'assistant', text: 'A live message', ts: Date.now() },
  });
  await expect(log.getByText('A live message')).toBeVisible();
  await expect(log.getByText(/^Older messages could not be loaded\./)).toBeVisible();

  refuse = false;
  await log.getByRole('button', { name: 'Try again' }).click();
  await expect(log.getByText('Kept in the history')).toBeVisible();
  await expect(log.getByText('This is the beginning of the conversation.')).toBeVisible();
  await expect(log.getByText(/messages could not be loaded/i)).toHaveCount(0);
});
