import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { IrisRuntime } from '../../../runtime';
import { mount, visibleText, type Mounted } from '../../../testing/mount';
import { createTestRuntime, disposeTestRuntime } from '../../../testing/runtime';
import { until } from '../../../testing/until';
import { ChannelNav } from './ChannelNav';

let runtime: IrisRuntime;
let mounted: Mounted | undefined;
afterEach(async () => {
  mounted?.unmount();
  await disposeTestRuntime(runtime);
});

describe('the channel nav', () => {
  it('lists the stored channels by name in the gateway order, archived ones hidden, and marks the lane on screen', async () => {
    runtime = createTestRuntime();
    await runtime.db.channels.bulkPut([
      { chat_id: 'home', name: 'Home', kind: 'default', is_default: true, order: 0 },
      { chat_id: 'work', name: 'Work', kind: 'channel', order: 1 },
      { chat_id: 'old', name: 'Old plans', kind: 'channel', archived: true, order: 2 },
    ]);
    mounted = mount(() => <ChannelNav currentLane="work" onNavigate={() => {}} />, runtime);
    const nav = await until(
      () => mounted!.container.querySelector('nav[aria-label="Channels"]'),
      'the Channels navigation',
    );
    const names = () => [...nav.querySelectorAll('a')].map((a) => visibleText(a));
    await until(() => names().some((n) => n.includes('Work')), 'the Work channel listed');
    const listed = names();
    expect(listed.findIndex((n) => n.includes('Home'))).toBeLessThan(listed.findIndex((n) => n.includes('Work')));
    expect(listed.some((n) => n.includes('Old plans'))).toBe(false);
    const current = nav.querySelector('a[aria-current="page"]');
    expect(visibleText(current)).toContain('Work');
  });

  it('says it has no channels only once the store has been read, not while the list loads', async () => {
    runtime = createTestRuntime();
    await runtime.db.channels.put({ chat_id: 'home', name: 'Home', kind: 'default', is_default: true, order: 0 });
    mounted = mount(() => <ChannelNav currentLane="home" onNavigate={() => {}} />, runtime);
    const nav = mounted.container.querySelector('nav[aria-label="Channels"]')!;
    expect(visibleText(nav)).not.toContain('No channels yet');
    expect(nav.querySelector('[aria-busy="true"]')).not.toBeNull();
    await until(() => visibleText(nav).includes('Home'), 'the Home channel listed');
    expect(visibleText(nav)).not.toContain('No channels yet');

    await runtime.db.channels.clear();
    await until(() => visibleText(nav).includes('No channels yet'), 'the empty list said');
  });
});
