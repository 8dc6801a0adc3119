import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { freshDb } from '../../testing/db';
import { deleteSetting, getDeviceId, getDraft, getSetting, rawSetting, setDraft, setSetting } from './settings';

describe('settings model', () => {
  it('stores typed values and reads a wrong-typed row as absent', async () => {
    const db = freshDb();
    expect(await getSetting(db, 'token')).toBeUndefined();
    await setSetting(db, 'token', 'secret');
    await setSetting(db, 'theme', 'dark');
    expect(await getSetting(db, 'token')).toBe('secret');
    expect(await getSetting(db, 'theme')).toBe('dark');
    await db.settings.put({ key: 'theme', value: 'purple' });
    await db.settings.put({ key: 'commands', value: 'nope' });
    expect(await getSetting(db, 'theme')).toBeUndefined();
    expect(await getSetting(db, 'commands')).toBeUndefined();
    await deleteSetting(db, 'token');
    expect(await getSetting(db, 'token')).toBeUndefined();
    db.close();
  });

  it('makes the device id once, even when asked concurrently', async () => {
    const db = freshDb();
    const ids = await Promise.all([getDeviceId(db), getDeviceId(db), getDeviceId(db)]);
    expect(new Set(ids).size).toBe(1);
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(await getDeviceId(db)).toBe(ids[0]);
    db.close();
  });

  it('keeps a draft per lane and removes an emptied one', async () => {
    const db = freshDb();
    await setDraft(db, 'A', 'half a thought');
    await setDraft(db, 'B', 'other');
    expect(await getDraft(db, 'A')).toBe('half a thought');
    expect(await getDraft(db, 'C')).toBe('');
    await setDraft(db, 'A', '');
    expect(await getDraft(db, 'A')).toBe('');
    expect(await db.settings.get('draft:A')).toBeUndefined();
    expect(await getDraft(db, 'B')).toBe('other');
    db.close();
  });

  it('hands a row as stored to a reader that checks the shape itself', async () => {
    const db = freshDb();
    expect(await rawSetting(db, 'gatewayStatus')).toBeUndefined();
    await db.settings.put({ key: 'gatewayStatus', value: 'restarting' });
    expect(await getSetting(db, 'gatewayStatus')).toBeUndefined();
    expect(await rawSetting(db, 'gatewayStatus')).toBe('restarting');
    db.close();
  });
});
