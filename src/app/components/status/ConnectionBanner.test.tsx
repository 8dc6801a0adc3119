import 'fake-indexeddb/auto';
import { createSignal } from 'solid-js';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectionState } from '../../../client';
import type { IrisRuntime } from '../../../runtime';
import { setSetting } from '../../../store/models/settings';
import { mount, visibleText, type Mounted } from '../../../testing/mount';
import { createTestRuntime, disposeTestRuntime } from '../../../testing/runtime';
import { until } from '../../../testing/until';
import { ConnectionBanner } from './ConnectionBanner';

let runtime: IrisRuntime;
let mounted: Mounted | undefined;
let flipping: ReturnType<typeof setInterval> | undefined;
afterEach(async () => {
  clearInterval(flipping);
  mounted?.unmount();
  await disposeTestRuntime(runtime);
});

describe('the connection banner', () => {
  it('says Offline within a second of losing the gateway, though reconnect attempts flip the state faster than that', async () => {
    runtime = createTestRuntime();
    await setSetting(runtime.db, 'token', 'paired');
    const [state, setState] = createSignal<ConnectionState>('online');
    const client = Object.create(runtime.client) as IrisRuntime['client'];
    Object.defineProperty(client, 'state', { value: state });
    mounted = mount(() => <ConnectionBanner />, { ...runtime, client });
    const slot = await until(() => mounted!.container.querySelector('.connection-banner-slot'), 'the banner slot');
    await new Promise((r) => setTimeout(r, 50));
    // Lost: offline, then an attempt every 300 ms (the backoff's first waits), each failing at once.
    const lost = Date.now();
    setState('offline');
    flipping = setInterval(() => setState((s) => (s === 'offline' ? 'connecting' : 'offline')), 300);
    await until(() => visibleText(slot) !== '', 'a banner', 3_000);
    expect(Date.now() - lost).toBeLessThan(1_600);
    expect(visibleText(slot)).toMatch(/Offline|Reconnecting/);
  });
});
