import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IrisDB } from '../store/db';
import { clearShownCount, setShownCount, shownCount } from './shownCounts';

describe('shownCounts', () => {
  let db: IrisDB;
  beforeEach(() => {
    db = new IrisDB(`shown-${Math.random()}`);
  });
  afterEach(async () => {
    db.close();
    await db.delete();
  });

  it('keeps a count per tag until it is cleared', async () => {
    expect(await shownCount(db, 'lane:a')).toBe(0);
    await setShownCount(db, 'lane:a', 2);
    await setShownCount(db, 'lane:b', 1);
    expect(await shownCount(db, 'lane:a')).toBe(2);
    await clearShownCount(db, 'lane:a');
    expect(await shownCount(db, 'lane:a')).toBe(0);
    expect(await shownCount(db, 'lane:b')).toBe(1);
  });

  it('reads anything but a positive whole number as none', async () => {
    await db.settings.put({ key: 'pushShown:lane:a', value: 'two' });
    expect(await shownCount(db, 'lane:a')).toBe(0);
    await db.settings.put({ key: 'pushShown:lane:a', value: -1 });
    expect(await shownCount(db, 'lane:a')).toBe(0);
  });
});
