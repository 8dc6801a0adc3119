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

  it('opens a huge output at its start, says how much there is, and copies all of it', async () => {
    const output = `${'line of output\n'.repeat(60_000)}THE-END`;
    let copied = '';
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: async (text: string) => void (copied = text) },
    });
    const card = mountCard(toolRow({ state: 'ok', output, args: { path: 'x'.repeat(100_000) } }));
    card.querySelector<HTMLButtonElement>('.tool-toggle')!.click();
    const shown = card.querySelector('.tool-output pre:not(.tool-args)')!.textContent!;
    expect(shown.startsWith('line of output')).toBe(true);
    expect(shown.length).toBeLessThanOrEqual(10_001);
    expect(card.querySelector('.tool-args')!.textContent!.length).toBeLessThanOrEqual(10_001);
    expect(visibleText(card.querySelector('.tool-cut')!)).toContain('Showing the first 10,000 of 900,007 characters.');
    const copy = [...card.querySelectorAll('button')].find((b) => b.textContent === 'Copy output')!;
    copy.click();
    await expect.poll(() => copy.textContent).toBe('Copied');
    expect(copied === output).toBe(true);
  });

  it('opens a short output whole, with no note', () => {
    const card = mountCard(toolRow({ state: 'ok', output: 'total 0' }));
    card.querySelector<HTMLButtonElement>('.tool-toggle')!.click();
    expect(card.querySelector('.tool-output pre')!.textContent).toBe('total 0');
    expect(card.querySelector('.tool-cut')).toBeNull();
  });
});
