import { afterEach, describe, expect, it } from 'vitest';
import { keepFocusThroughMoves, keepFocusedRow, withoutKeptRow } from './focusedRow';

const range = (startIndex: number, endIndex: number) => ({ startIndex, endIndex, overscan: 0, count: 100 });

/** A list of rows keyed `k0`, `k1`, … as the message list renders them, each with a focusable article. */
function list(keys: number[]) {
  const scroller = document.createElement('div');
  const rows = document.createElement('div');
  scroller.append(rows);
  for (const i of keys) {
    const row = document.createElement('div');
    row.dataset.key = `k${i}`;
    const article = document.createElement('article');
    article.tabIndex = -1;
    row.append(article);
    rows.append(row);
  }
  document.body.append(scroller);
  const article = (i: number) => rows.querySelector<HTMLElement>(`[data-key="k${i}"] article`)!;
  return { scroller, rows, article };
}

afterEach(() => document.body.replaceChildren());

describe('keepFocusedRow', () => {
  const indexOfKey = (key: string) => Number(key.slice(1));

  it('adds the focused row to a range that has moved away from it, on its side', () => {
    const { scroller, article } = list([3, 50]);
    const extract = keepFocusedRow(() => scroller, indexOfKey);
    article(50).focus();
    expect(extract(range(10, 12))).toEqual([10, 11, 12, 50]);
    article(3).focus();
    expect(extract(range(10, 12))).toEqual([3, 10, 11, 12]);
    expect(extract(range(2, 4))).toEqual([2, 3, 4]);
  });

  it('is the plain range when focus is elsewhere, on the list itself, or on a row no longer listed', () => {
    const { scroller, article } = list([7]);
    const extract = keepFocusedRow(
      () => scroller,
      (key) => (key === 'k7' ? -1 : 0),
    );
    expect(extract(range(10, 11))).toEqual([10, 11]);
    scroller.tabIndex = 0;
    scroller.focus();
    expect(extract(range(10, 11))).toEqual([10, 11]);
    article(7).focus();
    expect(extract(range(10, 11))).toEqual([10, 11]);
  });
});

describe('withoutKeptRow', () => {
  const items = (...indexes: number[]) => indexes.map((index) => ({ index }));

  it('drops a row set apart from the range at either end, and keeps a contiguous range as it is', () => {
    expect(withoutKeptRow(items(3, 10, 11, 12))).toEqual(items(10, 11, 12));
    expect(withoutKeptRow(items(10, 11, 12, 50))).toEqual(items(10, 11, 12));
    const contiguous = items(10, 11, 12);
    expect(withoutKeptRow(contiguous)).toBe(contiguous);
    expect(withoutKeptRow(items(4))).toEqual(items(4));
  });
});

describe('keepFocusThroughMoves', () => {
  it('gives focus back to a row that lost it by being moved', async () => {
    const { rows, article } = list([1, 2]);
    const stop = keepFocusThroughMoves(rows);
    article(2).focus();
    // As a move does in the browser: focus goes to nothing, the row is taken out and put back.
    article(2).blur();
    rows.insertBefore(rows.lastElementChild!, rows.firstElementChild);
    await Promise.resolve();
    expect(document.activeElement).toBe(article(2));
    stop();
  });

  it('leaves focus where the person put it: elsewhere, or nowhere without a move', async () => {
    const { rows, article } = list([1, 2]);
    const stop = keepFocusThroughMoves(rows);
    article(2).focus();
    article(2).blur(); // a click on the page's background
    rows.append(document.createElement('div')); // a row added, none moved
    await Promise.resolve();
    expect(document.activeElement).toBe(document.body);

    const button = document.createElement('button');
    document.body.append(button);
    article(1).focus();
    button.focus(); // the person went to a button: not given back even if the row moves now
    rows.append(rows.firstElementChild!);
    await Promise.resolve();
    expect(document.activeElement).toBe(button);
    stop();
  });
});
