import 'fake-indexeddb/auto';
import { createSignal } from 'solid-js';
import { createStore } from 'solid-js/store';
import { afterEach, describe, expect, it } from 'vitest';
import type { IrisRuntime } from '../../../runtime';
import type { MessageRow } from '../../../store/schema';
import { mount, visibleText, type Mounted } from '../../../testing/mount';
import { createTestRuntime, disposeTestRuntime } from '../../../testing/runtime';
import { until } from '../../../testing/until';
import { testMessageList } from './testListContext';
import { MessageListContext, type MessageListContextValue } from './listContext';
import { MessageItem } from './MessageItem';
import { PAUSED_TEXT } from './connectionPause';

let runtime: IrisRuntime;
let mounted: Mounted | undefined;
afterEach(async () => {
  mounted?.unmount();
  await disposeTestRuntime(runtime);
});

const list = (extra: Partial<MessageListContextValue> = {}) => testMessageList(extra);

/** A streaming assistant row with this id and stored text. */
const streamingRow = (message_id: string, text: string): MessageRow => ({
  message_id,
  lane: 'web:default',
  chat_id: 'web:default',
  role: 'assistant',
  text,
  ts: 1,
  status: 'streaming',
});

/** The bubble of `row`, in a message list, on this test's runtime. */
const mountItem = (row: MessageRow, extra: Partial<MessageListContextValue> = {}) =>
  mount(
    () => (
      <MessageListContext.Provider value={list(extra)}>
        <MessageItem message={row} />
      </MessageListContext.Provider>
    ),
    runtime,
  );

describe('an assistant message while it streams', () => {
  it('shows the newest text this tab received before the store has it, and the stored text once final', async () => {
    runtime = createTestRuntime();
    // What the frame pipeline handed out (client.arrivingText), ahead of the stored row.
    const [arriving, setArriving] = createSignal<string | undefined>('The answer is forty');
    // eslint-disable-next-line solid/reactivity -- read in the bubble's memo, a tracked scope
    runtime.client.arrivingText = (id) => (id === 'm1' ? arriving() : undefined);
    const [row, setRow] = createStore<MessageRow>(streamingRow('m1', 'The answer'));
    mounted = mountItem(row);
    const body = () => visibleText(mounted!.container.querySelector('.md'));
    await until(() => body() === 'The answer is forty', 'the received text, not the stored one');
    setArriving('The answer is forty-two');
    await until(() => body() === 'The answer is forty-two', 'the newer received text');

    // The stored final text is the truth, whatever arrived before it.
    setRow({ text: 'The answer is 42.', status: 'final' });
    await until(() => body() === 'The answer is 42.', 'the stored final text');
    expect(mounted.container.querySelector('article')?.getAttribute('aria-busy')).toBe('false');
  });

  it('shows the received text before the store has any text (a reply without reasoning)', async () => {
    runtime = createTestRuntime();
    runtime.client.arrivingText = (id) => (id === 'm3' ? 'First words' : undefined);
    mounted = mountItem(streamingRow('m3', ''));
    await until(() => visibleText(mounted!.container.querySelector('.md')) === 'First words', 'the received text');
    expect(mounted.container.querySelector('.msg-typing')).toBeNull();
  });

  it('after reasoning, keeps "Thinking…" until the store has the first text (its write ends the thinking)', async () => {
    runtime = createTestRuntime();
    runtime.client.arrivingText = (id) => (id === 'm4' ? 'First words' : undefined);
    const [row, setRow] = createStore<MessageRow>({ ...streamingRow('m4', ''), reasoning: 'Let me think.' });
    mounted = mountItem(row);
    await until(() => !!mounted!.container.textContent?.includes('Thinking…'), 'the thinking line');
    // The reply's own text (the reasoning is Markdown too, inside the turn line).
    const body = () => mounted!.container.querySelector('article > .md');
    expect(body()).toBeNull();

    setRow({ text: 'First', thought_ms: 2000 });
    await until(() => visibleText(body()) === 'First words', 'the received text');
    expect(mounted.container.textContent).not.toContain('Thinking…');
  });

  it('shows the stored text when this tab received nothing newer (another tab holds the socket)', async () => {
    runtime = createTestRuntime();
    const row = streamingRow('m2', 'Stored so far');
    mounted = mountItem(row);
    await until(() => visibleText(mounted!.container.querySelector('.md')) === 'Stored so far', 'the stored text');
  });
});

describe('an assistant message while the connection is down', () => {
  const pausedLine = () => mounted!.container.querySelector('.msg-paused');

  it('says it is paused, with no caret, and streams on once the connection is back', async () => {
    runtime = createTestRuntime();
    const [paused, setPaused] = createSignal<string | undefined>(undefined);
    const [row, setRow] = createStore<MessageRow>(streamingRow('m5', 'Half of the answer'));
    mounted = mountItem(row, { paused });
    const body = () => mounted!.container.querySelector('article > .md');
    await until(() => visibleText(body()) === 'Half of the answer', 'the text so far');
    expect(body()?.classList.contains('md-streaming')).toBe(true);
    expect(pausedLine()).toBeNull();
    expect(mounted.container.querySelector('.turn-status')?.textContent).toBe('Writing…');

    setPaused(PAUSED_TEXT);
    await until(() => pausedLine() !== null, 'the paused line');
    expect(pausedLine()!.textContent).toBe(PAUSED_TEXT);
    expect(mounted.container.querySelector('.turn-status')?.textContent).toBe('Paused');
    expect(body()?.classList.contains('md-streaming')).toBe(false);
    expect(mounted.container.querySelector('article')?.getAttribute('aria-busy')).toBe('true');

    setPaused(undefined);
    await until(() => pausedLine() === null, 'the paused line gone');
    expect(body()?.classList.contains('md-streaming')).toBe(true);
    setRow({ text: 'Half of the answer, and the rest.', status: 'final' });
    await until(() => visibleText(body()) === 'Half of the answer, and the rest.', 'the final text');
  });

  it('shows the paused line in place of the typing dots before any text', async () => {
    runtime = createTestRuntime();
    mounted = mountItem(streamingRow('m6', ''), { paused: () => PAUSED_TEXT });
    await until(() => pausedLine() !== null, 'the paused line');
    expect(mounted.container.querySelector('.msg-typing')).toBeNull();
  });

  it('says nothing of it on a finished reply', async () => {
    runtime = createTestRuntime();
    mounted = mountItem({ ...streamingRow('m7', 'All done.'), status: 'final' }, { paused: () => PAUSED_TEXT });
    await until(() => visibleText(mounted!.container.querySelector('.md')) === 'All done.', 'the reply');
    expect(pausedLine()).toBeNull();
  });
});

describe('a message I sent', () => {
  const mine = (extra: Partial<MessageRow>): MessageRow => ({
    message_id: 'local:c1',
    client_id: 'c1',
    lane: 'web:default',
    chat_id: 'web:default',
    role: 'user',
    text: 'anyone there?',
    ts: 1,
    status: 'pending',
    ...extra,
  });

  it('while pending says nothing more, until the gateway has not answered in time: then it says so beside the clock', async () => {
    runtime = createTestRuntime();
    const [row, setRow] = createStore<MessageRow>(mine({}));
    mounted = mountItem(row);
    const delivery = () => mounted!.container.querySelector('[data-delivery]');
    await until(() => delivery()?.getAttribute('data-delivery') === 'pending', 'the pending mark');
    const note = () => visibleText(mounted!.container.querySelector('.delivery-waiting'));
    expect(note()).toBe('');

    setRow('error', 'No answer from the gateway yet. Sending again…');
    await until(() => note() === 'No answer from the gateway yet. Sending again…', 'the words beside the clock');
    expect(delivery()!.getAttribute('data-delivery')).toBe('pending');
  });
});
