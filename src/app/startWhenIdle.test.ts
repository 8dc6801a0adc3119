// A background service of the runtime starts once the page is idle, while a screen still wants it.
import { describe, expect, it, vi } from 'vitest';
import type { IrisRuntime } from '../runtime';
import { startWhenIdle, type ServiceLoad } from './startWhenIdle';

/** Past the idle moment (a 500 ms timer here) and a chunk's load. */
const pastIdle = () => new Promise((resolve) => setTimeout(resolve, 700));

function fakeRuntime() {
  const shared = vi.fn();
  return { runtime: { shared } as unknown as IrisRuntime, shared };
}

const service = () => 'the service';

describe('startWhenIdle', () => {
  it('starts the service once for all the screens that wait for it, while one of them is still shown', async () => {
    const { runtime, shared } = fakeRuntime();
    const load: ServiceLoad = () => Promise.resolve(service);
    const releaseFirst = startWhenIdle(runtime, load, 1000);
    startWhenIdle(runtime, load, 1000);
    releaseFirst();
    await pastIdle();
    expect(shared.mock.calls).toEqual([[service]]);
  });

  it('does not start it when every screen went first, nor when they went while its chunk loaded; the next screen schedules it again', async () => {
    const { runtime, shared } = fakeRuntime();
    const load: ServiceLoad = () => Promise.resolve(service);
    startWhenIdle(runtime, load, 1000)();
    await pastIdle();
    expect(shared).not.toHaveBeenCalled();

    let loaded!: () => void;
    const slowLoad: ServiceLoad = () => new Promise((resolve) => (loaded = () => resolve(service)));
    const release = startWhenIdle(runtime, slowLoad, 1000);
    await pastIdle(); // loading now
    release();
    loaded();
    await pastIdle();
    expect(shared).not.toHaveBeenCalled();

    startWhenIdle(runtime, load, 1000);
    await pastIdle();
    expect(shared.mock.calls).toEqual([[service]]);
  });

  it('keeps a started service when its screen goes, and tries a chunk that failed to load again on the next screen', async () => {
    const { runtime, shared } = fakeRuntime();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    let fails = true;
    const load: ServiceLoad = () => (fails ? Promise.reject(new Error('offline')) : Promise.resolve(service));
    startWhenIdle(runtime, load, 1000);
    await pastIdle();
    expect(warn).toHaveBeenCalledWith('iris: could not load a background service', expect.any(Error));
    fails = false;
    const release = startWhenIdle(runtime, load, 1000);
    await pastIdle();
    release();
    expect(shared.mock.calls).toEqual([[service]]);
    warn.mockRestore();
  });
});
