// A file the gateway cannot send: the person reads why, in the gateway's words, and Try again fetches it
// once the gateway can.
import { expect, test } from '@playwright/test';
import { openLane, pair } from '../support';
import { startHostile, type HostileSetup } from './hostile-gateway';

const LANE = 'web:default';
const BODY = 'the notes, at last\n';

let hostile: HostileSetup;

test.afterEach(async () => {
  await hostile?.close();
});

test('a download the gateway refuses says why, and Try again fetches it once the gateway has it', async ({ page }) => {
  let pulls = 0;
  hostile = await startHostile({
    onRequest(frame, reply) {
      if (frame.type !== 'media.pull') return false;
      if (++pulls === 1) {
        reply({ type: 'error', id: frame.id, payload: { code: 'not_found', message: 'That file has expired.' } });
      } else {
        hostile.gateway.emit(Buffer.from(BODY));
        reply({ type: 'media.pull.end', id: frame.id, payload: { ok: true } });
      }
      return true;
    },
  });
  await pair(page, hostile);
  await openLane(page, hostile);
  hostile.gateway.emit({
    type: 'message',
    chat_id: LANE,
    payload: {
      message_id: 'with-notes',
      role: 'assistant',
      text: 'Here are your notes.',
      ts: Date.now(),
      media: [
        {
          media_id: 'med-notes',
          kind: 'document',
          mime: 'text/plain',
          filename: 'notes.txt',
          size: Buffer.byteLength(BODY),
        },
      ],
    },
  });
  const item = page.getByRole('log', { name: 'Messages' }).locator('[data-media-id="med-notes"]');
  await item.getByRole('button', { name: /^Download, / }).click();
  await expect(item.getByText('Could not download: That file has expired.')).toBeVisible();
  await item.getByRole('button', { name: 'Try again to download notes.txt' }).click();
  await expect(item.getByRole('link', { name: 'Save notes.txt' })).toBeVisible();
  await expect(item.getByText(/Could not download/)).toHaveCount(0);
  expect(pulls).toBe(2);
});
