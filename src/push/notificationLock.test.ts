import { afterEach, describe, expect, it, vi } from 'vitest';
import { NOTIFICATIONS_LOCK, withNotificationLock } from './notificationLock';

afterEach(() => vi.unstubAllGlobals());

describe('withNotificationLock', () => {
  it('runs the work holding the one notifications lock', async () => {
    const order: string[] = [];
    const request = vi.fn(async (name: string, work: () => Promise<unknown>) => {
      order.push(`lock ${name}`);
      const result = await work();
      order.push('unlock');
      return result;
    });
    vi.stubGlobal('navigator', { locks: { request } });
    const result = await withNotificationLock(async () => {
      order.push('work');
      return 7;
    });
    expect(result).toBe(7);
    expect(order).toEqual([`lock ${NOTIFICATIONS_LOCK}`, 'work', 'unlock']);
  });

  it('runs the work as it is in a browser without Web Locks, and passes its failure on', async () => {
    vi.stubGlobal('navigator', {});
    await expect(withNotificationLock(async () => 'done')).resolves.toBe('done');
    await expect(withNotificationLock(() => Promise.reject(new Error('no permission')))).rejects.toThrow(
      'no permission',
    );
  });
});
