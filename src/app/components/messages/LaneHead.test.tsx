import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { IrisRuntime } from '../../../runtime';
import type { MessageRow } from '../../../store/schema';
import { mount, visibleText, type Mounted } from '../../../testing/mount';
import { createTestRuntime, disposeTestRuntime } from '../../../testing/runtime';
import { until } from '../../../testing/until';
import { LaneHead } from './LaneHead';

const LANE = 'web:default';
let runtime: IrisRuntime;
let mounted: Mounted | undefined;
afterEach(async () => {
  mounted?.unmount();
  await disposeTestRuntime(runtime);
});

const row = (n: number, role: MessageRow['role'], text: string): MessageRow => ({
  message_id: `m${n}`,
  lane: LANE,
  chat_id: LANE,
  role,
  text,
  ts: 1_700_000_000_000 + n * 60_000,
  status: 'final',
});

describe('the lane head', () => {
  it('shows the lane as it will look: its channel in the top bar, the agent’s lines under its name, the person’s in bubbles, as text', async () => {
    runtime = createTestRuntime();
    await runtime.db.channels.put({ chat_id: LANE, name: 'General', kind: 'default', order: 0 });
    await runtime.db.messages.bulkPut([
      row(1, 'user', 'Plan for **tomorrow**?'),
      row(2, 'assistant', 'Standup at 9 <img src=x onerror="window.headXss=1">'),
    ]);
    let shown = 0;
    mounted = mount(() => <LaneHead lane={LANE} onShown={() => shown++} />, runtime);
    // Nothing until everything is read: never a bar without its title or a list without its rows.
    expect(mounted.container.querySelector('.lane-head')).toBeNull();
    await until(() => shown === 1, 'the head shown');
    const main = mounted.container.querySelector('main[aria-label="Conversation (loading)"]')!;
    expect(visibleText(main.querySelector('.lane-head-title'))).toBe('General');

    const messages = [...main.querySelectorAll('.lane-head-msg')];
    expect(messages.map((m) => m.classList.contains('lane-head-user'))).toEqual([true, false]);
    expect(visibleText(messages[0]!.querySelector('.lane-head-bubble'))).toBe('Plan for **tomorrow**?');
    expect(visibleText(messages[1]!.querySelector('.lane-head-name'))).toBe('Hermes');
    expect(visibleText(messages[1]!.querySelector('.lane-head-text'))).toContain('<img src=x');
    expect(main.querySelector('img, strong')).toBeNull();
    // Its controls are drawn, not live: nothing to focus or press before the lane is there.
    expect(mounted.container.querySelector('button, textarea, input, a')).toBeNull();
  });

  it('is shown at once, titled "Conversation", for a lane with nothing stored', async () => {
    runtime = createTestRuntime();
    let shown = 0;
    mounted = mount(() => <LaneHead lane="web:nowhere" onShown={() => shown++} />, runtime);
    await until(() => shown === 1, 'the head shown');
    await until(
      () => visibleText(mounted!.container.querySelector('.lane-head-title')) === 'Conversation',
      'the title',
    );
    expect(mounted.container.querySelectorAll('.lane-head-msg')).toHaveLength(0);
  });
});
