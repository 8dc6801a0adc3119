import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { IrisRuntime } from '../../../runtime';
import type { ActivityRow } from '../../../store/schema';
import { mount, visibleText, type Mounted } from '../../../testing/mount';
import { createTestRuntime, disposeTestRuntime } from '../../../testing/runtime';
import { testMessageList } from './testListContext';
import { MessageListContext } from './listContext';
import { ToolCard } from './ToolCard';

let runtime: IrisRuntime;
let mounted: Mounted | undefined;
afterEach(async () => {
  mounted?.unmount();
  await disposeTestRuntime(runtime);
});

const list = (turnClosed: boolean) => testMessageList({ turnClosed: () => turnClosed });

/** A `terminal` call of turn `t`, with `extra`. */
const toolRow = (extra: Partial<ActivityRow>): ActivityRow => ({
  id: 't:tool:0',
  lane: 'web:default',
  turn: 't',
  kind: 'tool',
  ts: 1,
  order: 0,
  index: 0,
  name: 'terminal',
  ...extra,
});

function mountCard(tool: ActivityRow, turnClosed = true): HTMLElement {
  runtime = createTestRuntime();
  mounted = mount(
    () => (
      <MessageListContext.Provider value={list(turnClosed)}>
        <ToolCard tool={tool} />
      </MessageListContext.Provider>
    ),
    runtime,
  );
  return mounted.container;
}

/** The card's head as a person reads it: name, mark and state, time. */
function cardText(state: ActivityRow['state'], turnClosed = true): string {
  const tool = toolRow({ duration: 0.2, ...(state ? { state } : {}) });
  return visibleText(mountCard(tool, turnClosed).querySelector('.tool-head')!);
}

describe('a tool card', () => {
  it('says how the call ended: Done with a tick', () => {
    expect(cardText('ok')).toBe('terminal✓Done · 200 ms');
  });

  it('says how the call ended: Failed with a cross', () => {
    expect(cardText('failed')).toBe('terminal✕Failed · 200 ms');
  });

  it('says a call whose outcome is not known (from an agent’s own records) finished, with neither mark', () => {
    expect(cardText('done')).toBe('terminalFinished · 200 ms');
  });

  it('says a call its turn ended unfinished stopped', () => {
    expect(cardText('running', true)).toBe('terminal–Stopped · 200 ms');
  });

  it('shows the start of a huge preview, not all of it (its first lines show; the rest was laid out unseen)', () => {
    const card = mountCard(toolRow({ state: 'ok', preview: `cat ${'x'.repeat(1_000_000)}` }));
    const preview = card.querySelector('.tool-preview')!.textContent!;
    expect(preview.startsWith('cat xxx')).toBe(true);
    expect(preview.endsWith('…')).toBe(true);
    expect(preview.length).toBeLessThanOrEqual(2_001);
  });
});
