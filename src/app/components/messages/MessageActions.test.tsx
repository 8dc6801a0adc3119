import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { IrisRuntime } from '../../../runtime';
import type { MessageRow } from '../../../store/schema';
import { mount, type Mounted } from '../../../testing/mount';
import { createTestRuntime, disposeTestRuntime } from '../../../testing/runtime';
import { until } from '../../../testing/until';
import { testMessageList } from './testListContext';
import { MessageListContext } from './listContext';
import { MessageActions } from './MessageActions';

let runtime: IrisRuntime;
let mounted: Mounted | undefined;
afterEach(async () => {
  mounted?.unmount();
  await disposeTestRuntime(runtime);
});

const list = () => testMessageList();

const row: MessageRow = {
  message_id: 'm1',
  lane: 'web:default',
  chat_id: 'web:default',
  role: 'assistant',
  text: 'Done.',
  ts: 1,
  status: 'final',
  model: 'demo-1',
};

const mountActions = () =>
  mount(
    () => (
      <MessageListContext.Provider value={list()}>
        <MessageActions message={row} />
      </MessageListContext.Provider>
    ),
    runtime,
  );

const names = () => [...mounted!.container.querySelectorAll('button')].map((b) => b.getAttribute('aria-label') ?? '');

// One file of its own: the first Tab is remembered for the page's life, as it is in the app.
describe("a message's action buttons", () => {
  it('come in an idle moment after the row, each named', async () => {
    runtime = createTestRuntime();
    mounted = mountActions();
    await until(() => names().length > 0, 'the buttons, once idle');
    expect(names()).toEqual(['Reply', 'Copy', 'Details', 'Delete']);
  });

  it('are there at once for a person who tabs into a row that has just mounted', () => {
    runtime = createTestRuntime();
    mounted = mountActions();
    expect(names()).toEqual([]); // not yet idle
    // Tab moves focus after its keydown is handled: the buttons must exist by then.
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', bubbles: true }));
    expect(names()).toEqual(['Reply', 'Copy', 'Details', 'Delete']);
  });
});
