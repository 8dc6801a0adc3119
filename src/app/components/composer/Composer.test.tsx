import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IrisRuntime } from '../../../runtime';
import { mount, type Mounted } from '../../../testing/mount';
import { createTestRuntime, disposeTestRuntime } from '../../../testing/runtime';
import { until } from '../../../testing/until';
import { Composer } from './Composer';

let runtime: IrisRuntime;
let mounted: Mounted | undefined;
afterEach(async () => {
  mounted?.unmount();
  await disposeTestRuntime(runtime);
});

/** A composer for the channel 'work' of a fresh runtime; resolves with its Message field. */
async function mountComposer(): Promise<HTMLTextAreaElement> {
  runtime = createTestRuntime();
  await runtime.db.channels.put({ chat_id: 'work', name: 'Work', kind: 'channel', order: 0 });
  mounted = mount(() => <Composer lane="work" />, runtime);
  return until(
    () => mounted!.container.querySelector<HTMLTextAreaElement>('textarea[aria-label="Message"]'),
    'the Message field',
  );
}

describe('the composer', () => {
  it('queues what was typed in the outbox (offline) and as a pending message, and empties the field', async () => {
    const field = await mountComposer();
    field.value = 'Deploy the docs';
    field.dispatchEvent(new Event('input', { bubbles: true }));
    const send = mounted!.container.querySelector<HTMLButtonElement>('button[type="submit"]')!;
    await until(() => !send.disabled, 'Send enabled');
    expect(send.textContent + (send.getAttribute('aria-label') ?? '')).toMatch(/Send/);
    send.click();

    const queued = await until(
      async () => (await runtime.db.outbox.toArray()).find((row) => row.text === 'Deploy the docs'),
      'the message in the outbox',
    );
    expect(queued).toMatchObject({ lane: 'work', chat_id: 'work', state: 'queued' });
    const bubble = await until(async () =>
      (await runtime.db.messages.toArray()).find((m) => m.client_id === queued.client_id),
    );
    expect(bubble).toMatchObject({ role: 'user', status: 'pending', text: 'Deploy the docs' });
    await until(() => field.value === '', 'the field emptied');
  });

  it('sends a file chosen a moment before Send with the message, not after it', async () => {
    const field = await mountComposer();
    const picker = mounted!.container.querySelector<HTMLInputElement>('input[type="file"]:not([capture])')!;
    const file = new File(['the notes'], 'notes.txt', { type: 'text/plain' });
    Object.defineProperty(picker, 'files', { value: [file], configurable: true });
    picker.dispatchEvent(new Event('change', { bubbles: true }));
    // Pressed at once: the file is still being stored (no chip yet).
    field.value = 'Here are my notes';
    field.dispatchEvent(new Event('input', { bubbles: true }));
    expect(mounted!.container.querySelector('.attachment-chips, [aria-label="Attachments"]')).toBeNull();
    const send = mounted!.container.querySelector<HTMLButtonElement>('button[type="submit"]')!;
    await until(() => !send.disabled, 'Send enabled');
    send.click();

    const queued = await until(
      async () => (await runtime.db.outbox.toArray()).find((row) => row.text === 'Here are my notes'),
      'the message in the outbox',
    );
    expect(queued.attachments).toHaveLength(1);
    const stored = await runtime.db.media.get(queued.attachments![0]!);
    expect(stored).toMatchObject({ filename: 'notes.txt' });
    expect(await runtime.db.outbox.count()).toBe(1);
  });

  it('starts the search index and the media machinery in an idle moment while shown, and neither when it went first', async () => {
    const startsOf = (r: IrisRuntime) => {
      const shared = vi.spyOn(r, 'shared');
      return () =>
        shared.mock.calls
          .map(([start]) => start.name)
          .filter((name) => name !== 'startDraftWriter')
          .sort();
    };
    await mountComposer();
    const shownStarts = startsOf(runtime);
    await until(() => shownStarts().length === 2, 'both started while the composer is shown', 5000);
    expect(shownStarts()).toEqual(['startLocalIndex', 'startMediaPuller']);

    mounted!.unmount();
    mounted = undefined;
    await disposeTestRuntime(runtime);
    await mountComposer();
    const goneStarts = startsOf(runtime);
    mounted!.unmount();
    mounted = undefined;
    // Past the idle moment (a 500 ms timer here, with no idle callbacks) and the chunks' load: a test's
    // runtime is stopped and its database deleted next, so a service started later would fail on it.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(goneStarts()).toEqual([]);
  });
});
