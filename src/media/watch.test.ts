import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IrisDB } from '../store/db';
import { watchLive } from './watch';

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const fn of cleanup.splice(0)) fn();
  vi.restoreAllMocks();
});

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('a media watch', () => {
  it('reports a failing query and keeps watching: later changes still arrive', async () => {
    const db = new IrisDB(`watch-${process.pid}`);
    cleanup.push(() => db.close());
    const reported = vi.spyOn(console, 'error').mockImplementation(() => {});
    let fail = true;
    const seen: number[] = [];
    cleanup.push(
      watchLive(
        'the test watch',
        async () => {
          const n = await db.settings.count();
          if (fail) {
            fail = false;
            throw new Error('disk full');
          }
          return n;
        },
        (n) => seen.push(n),
        10,
      ),
    );
    await until(() => seen.length > 0, 'the watch to come back');
    expect(reported).toHaveBeenCalledWith(expect.stringContaining('the test watch failed'), expect.any(Error));
    await db.settings.put({ key: 'media.autoDownload', value: 'never' } as never);
    await until(() => seen.includes(1), 'a change after the failure');
  });

  it('stops for good when told, even while waiting to watch again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let runs = 0;
    const stop = watchLive(
      'a broken watch',
      () => {
        runs++;
        throw new Error('broken');
      },
      () => {},
      10,
    );
    await until(() => runs >= 2, 'a second try');
    stop();
    const after = runs;
    await new Promise((r) => setTimeout(r, 60));
    expect(runs).toBe(after);
  });
});
