import 'fake-indexeddb/auto';
import { createSignal } from 'solid-js';
import { afterEach, describe, expect, it } from 'vitest';
import type { IrisRuntime } from '../../../runtime';
import type { LaneRow } from '../../../store/schema';
import { mount, visibleText, type Mounted } from '../../../testing/mount';
import { createTestRuntime, disposeTestRuntime } from '../../../testing/runtime';
import { until } from '../../../testing/until';
import { PAUSED_TEXT } from './connectionPause';
import { WaitingReply } from './ThinkingIndicator';

let runtime: IrisRuntime;
let mounted: Mounted | undefined;
afterEach(async () => {
  mounted?.unmount();
  await disposeTestRuntime(runtime);
});

const thinking: LaneRow = { lane: 'web:default', readTs: 0, busy: true, typing: false, turnSeq: 1 };

describe('the placeholder reply', () => {
  it('says what the agent does, and that it is paused while the connection is down', async () => {
    runtime = createTestRuntime();
    const [paused, setPaused] = createSignal<string | undefined>(undefined);
    mounted = mount(() => <WaitingReply lane={thinking} author="Hermes" paused={paused()} />, runtime);
    const line = () => visibleText(mounted!.container.querySelector('.waiting-line'));
    await until(() => line() === 'Thinking…', 'what the agent does');
    setPaused(PAUSED_TEXT);
    await until(() => line() === PAUSED_TEXT, 'the paused words');
    expect(mounted.container.querySelector('article')?.classList.contains('paused')).toBe(true);
    setPaused(undefined);
    await until(() => line() === 'Thinking…', 'what the agent does, again');
  });
});
