import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { IrisRuntime } from '../../../runtime';
import type { PickerRow } from '../../../store/schema';
import { mount, visibleText, type Mounted } from '../../../testing/mount';
import { createTestRuntime, disposeTestRuntime } from '../../../testing/runtime';
import { until } from '../../../testing/until';
import { PickerDialog } from './PickerDialog';

let runtime: IrisRuntime;
let mounted: Mounted | undefined;
afterEach(async () => {
  mounted?.unmount();
  await disposeTestRuntime(runtime);
});

const picker: PickerRow = {
  picker_id: 'p1',
  lane: 'work',
  type: 'picker.choice',
  payload: {
    picker_id: 'p1',
    title: 'Which environment?',
    choices: [
      { value: 'staging', label: 'Staging', is_current: true },
      { value: 'prod', label: 'Production' },
    ],
  },
  state: 'open',
  ts: 1,
};

describe('a picker dialog', () => {
  it("is named by the agent's question and offers its options, the current one marked", async () => {
    runtime = createTestRuntime();
    await runtime.db.pickers.put(picker);
    mounted = mount(() => <PickerDialog picker={picker} onDismiss={() => {}} />, runtime);
    const dialog = await until(() => document.querySelector('dialog'), 'the dialog');
    expect(visibleText(dialog)).toContain('Which environment?');
    const options = [...dialog.querySelectorAll<HTMLButtonElement>('button.picker-option')];
    expect(options.map((b) => visibleText(b.querySelector('.picker-option-label')))).toEqual(['Staging', 'Production']);
    expect(options.map((b) => visibleText(b.querySelector('.picker-current')))).toEqual(['Current', '']);
    expect(options.map((b) => b.getAttribute('aria-current'))).toEqual(['true', null]);
  });

  it('unpaired, an answer is not sent: the dialog says why in words and the question stays open', async () => {
    runtime = createTestRuntime();
    await runtime.db.pickers.put(picker);
    await runtime.db.channels.put({ chat_id: 'work', name: 'Work', kind: 'channel', order: 0 });
    mounted = mount(() => <PickerDialog picker={picker} onDismiss={() => {}} />, runtime);
    const production = await until(
      () =>
        [...document.querySelectorAll<HTMLButtonElement>('button.picker-option')].find((b) =>
          visibleText(b).startsWith('Production'),
        ),
      'the Production option',
    );
    production.click();
    const alert = await until(() => document.querySelector('[role="alert"]'), 'the error in the dialog');
    expect(visibleText(alert)).toBe('Not paired with a gateway.');
    expect((await runtime.db.pickers.get('p1'))?.state).toBe('open');
  });
});
