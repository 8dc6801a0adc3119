// The runtime's theme, as the page shows it: <html data-theme> and the browser's bar colour, kept in
// the database and in the local copy read before the first paint. A .tsx file: it needs the DOM.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getSetting, setSetting } from '../store/models/settings';
import { createTestRuntime, disposeTestRuntime } from '../testing/runtime';
import { until } from '../testing/until';
import type { IrisRuntime } from './runtime';

let runtime: IrisRuntime;
const shown = () => document.documentElement.getAttribute('data-theme');
const barColours = () =>
  [...document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')].map((m) => m.content);

beforeEach(() => {
  localStorage.clear();
  document.documentElement.removeAttribute('data-theme');
  document.head.innerHTML =
    '<meta name="theme-color" media="(prefers-color-scheme: light)" content="#f6f7f9">' +
    '<meta name="theme-color" media="(prefers-color-scheme: dark)" content="#15171c">';
  runtime = createTestRuntime();
});
afterEach(() => disposeTestRuntime(runtime));

describe('the theme', () => {
  it('a choice shows at once, on both bar colours, and is what the runtime reads back', async () => {
    await runtime.theme.set('dark');
    expect(shown()).toBe('dark');
    expect(barColours()).toEqual(['#15171c', '#15171c']);
    expect(await runtime.theme.get()).toBe('dark');
    await runtime.theme.set('system');
    expect(shown()).toBe(null);
    expect(barColours()).toEqual(['#f6f7f9', '#15171c']);
  });

  it('start keeps the local copy over an older database copy, and brings the database up to date', async () => {
    // A reload right after choosing Light: the local copy was written, the database's write was cut off.
    localStorage.setItem('iris.theme', 'light');
    await setSetting(runtime.db, 'theme', 'system');
    runtime.theme.start();
    expect(shown()).toBe('light');
    await until(async () => (await getSetting(runtime.db, 'theme')) === 'light', "the database's copy repaired");
    expect(shown()).toBe('light');
    expect(await runtime.theme.get()).toBe('light');
  });

  it("start applies the database's choice when there is no local copy, and keeps it locally", async () => {
    await setSetting(runtime.db, 'theme', 'dark');
    runtime.theme.start();
    expect(shown()).toBe(null);
    await until(() => shown() === 'dark', "the database's choice");
    expect(localStorage.getItem('iris.theme')).toBe('dark');
    expect(await runtime.theme.get()).toBe('dark');
  });
});
