import 'fake-indexeddb/auto';
import { ErrorBoundary, createSignal } from 'solid-js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IrisRuntime } from '../../runtime';
import { mount, visibleText, type Mounted } from '../../testing/mount';
import { createTestRuntime, disposeTestRuntime } from '../../testing/runtime';
import { until } from '../../testing/until';
import { lazyPage } from './lazyPage';
import { lazyPart } from './lazyPart';
import { PART_UNAVAILABLE } from '../../lib/partUnavailable';

let runtime: IrisRuntime;
let mounted: Mounted | undefined;
afterEach(async () => {
  mounted?.unmount();
  mounted = undefined;
  vi.restoreAllMocks();
  await disposeTestRuntime(runtime);
});

/** A part's code: fails to load (as offline, from a server that went away) while `offline` is set. */
interface PartProps {
  label: string;
  open?: boolean;
  onClose?: () => void;
}

function partCode(name: string) {
  const state = { offline: true, loads: 0 };
  const load = () => {
    state.loads++;
    return state.offline
      ? Promise.reject(new TypeError('Failed to fetch dynamically imported module'))
      : Promise.resolve((props: PartProps) => <p>{`${name}: ${props.label}`}</p>);
  };
  return { state, load };
}

async function toasts() {
  return (await runtime.db.toasts.toArray()).map((t) => ({ title: t.title, body: t.body }));
}

describe('a part of a screen loaded on demand', () => {
  it('says once that it cannot be loaded, wherever it is shown, and shows up everywhere once online', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    runtime = createTestRuntime();
    const code = partCode('Media');
    const Media = lazyPart(code.load);
    mounted = mount(
      () => (
        <div>
          <Media label="first" />
          <Media label="second" />
        </div>
      ),
      runtime,
    );
    await until(async () => (await toasts()).length > 0, 'a toast');
    expect(await toasts()).toEqual([{ title: 'Could not show that', body: PART_UNAVAILABLE }]);
    expect(visibleText(mounted.container)).toBe('');

    code.state.offline = false;
    window.dispatchEvent(new Event('online'));
    await until(() => visibleText(mounted!.container) === 'Media: firstMedia: second', 'both places shown');
    expect(await toasts()).toHaveLength(1);
  });

  it('closes a dialog that cannot be loaded, and loads it again when it is asked for again', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    runtime = createTestRuntime();
    const code = partCode('Dialog');
    const Dialog = lazyPart(code.load, {
      title: 'Could not open that',
      onUnavailable: (shown) => shown.onClose?.(),
      askedAgain: (shown) => shown.open,
    });
    const [open, setOpen] = createSignal(true);
    let closed = false;
    // Kept mounted between uses, as the delete confirmation is.
    mounted = mount(
      () => (
        <div>
          <Dialog label={open() ? 'asked' : 'closed'} open={open()} onClose={() => ((closed = true), setOpen(false))} />
        </div>
      ),
      runtime,
    );
    await until(() => closed, 'the dialog closed');
    // The toast is written to the database after the dialog is told to close, not before.
    await until(async () => (await toasts()).length > 0, 'a toast');
    expect(await toasts()).toEqual([{ title: 'Could not open that', body: PART_UNAVAILABLE }]);
    const loads = code.state.loads;

    code.state.offline = false;
    setOpen(true);
    await until(() => visibleText(mounted!.container) === 'Dialog: asked', 'the dialog shown');
    expect(code.state.loads).toBe(loads + 1);
  });

  it("leaves the part's own failure to whoever catches errors, not worded as a missing part", async () => {
    runtime = createTestRuntime();
    const Broken = lazyPart<{ label: string }>(() =>
      Promise.resolve(() => {
        throw new Error('a bug in the part');
      }),
    );
    mounted = mount(
      () => (
        <ErrorBoundary fallback={(error: unknown) => <p>caught: {String((error as Error).message)}</p>}>
          <Broken label="x" />
        </ErrorBoundary>
      ),
      runtime,
    );
    await until(() => visibleText(mounted!.container) === 'caught: a bug in the part', 'the outer boundary');
    expect(await toasts()).toEqual([]);
  });
});

describe('a page loaded on demand', () => {
  it('says in its place that it cannot be loaded, and shows up when Try again is pressed once it can', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    runtime = createTestRuntime();
    const code = partCode('Settings');
    const Settings = lazyPage(code.load);
    mounted = mount(() => <Settings label="page" />, runtime);
    const alert = await until(() => mounted!.container.querySelector('[role="alert"]'), 'the page saying why');
    expect(visibleText(alert)).toContain(PART_UNAVAILABLE);

    code.state.offline = false;
    const tryAgain = [...alert.querySelectorAll('button')].find((b) => visibleText(b) === 'Try again');
    expect(tryAgain).toBeDefined();
    tryAgain!.click();
    await until(() => visibleText(mounted!.container) === 'Settings: page', 'the page shown');
  });
});
