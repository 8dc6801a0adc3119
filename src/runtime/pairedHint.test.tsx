// The paired mark that public/pair-preload.js reads before the app runs. A .tsx file: it needs the DOM
// (localStorage).
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setSetting } from '../store/models/settings';
import { createTestRuntime, disposeTestRuntime } from '../testing/runtime';
import { until } from '../testing/until';
import { PAIRED_HINT_KEY, readPairedHint } from './pairedHint';
import type { IrisRuntime } from './runtime';

let runtime: IrisRuntime;
const mark = () => localStorage.getItem(PAIRED_HINT_KEY);

beforeEach(() => {
  localStorage.clear();
  runtime = createTestRuntime();
});
afterEach(() => disposeTestRuntime(runtime));

describe('the paired mark', () => {
  it('follows the token: set once one is stored, gone when it is deleted, and never holds the token', async () => {
    runtime.start();
    await setSetting(runtime.db, 'token', 'secret-token-1234567890');
    await until(() => mark() === '1');
    expect(Object.values({ ...localStorage }).join(' ')).not.toContain('secret-token');
    await runtime.db.settings.delete('token');
    await until(() => mark() === null);
  });

  it('a stale mark without a token is removed at start (the database decides)', async () => {
    localStorage.setItem(PAIRED_HINT_KEY, '1');
    runtime.start();
    await until(() => mark() === null);
  });

  it('is read back as what it says: paired only with the mark set', () => {
    expect(readPairedHint()).toBe(false);
    localStorage.setItem(PAIRED_HINT_KEY, '1');
    expect(readPairedHint()).toBe(true);
    localStorage.setItem(PAIRED_HINT_KEY, 'yes');
    expect(readPairedHint()).toBe(false);
  });
});
