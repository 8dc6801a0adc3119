// The row holding keyboard focus keeps it while the list moves. A person reading with a keyboard or a
// screen reader lost their place (focus fell to the page's body) as an older page landed above a
// message just jumped to: for one frame the range is worked out at the old scroll position, before the
// reader's place is kept, so the row left the rendered range; and when it comes back, Solid moves rows
// to keep them in order, and the browser takes focus from an element that is moved.
import { defaultRangeExtractor, type Range } from '@tanstack/solid-virtual';

/** The virtualizer's range extractor: the range's rows, and the row holding focus if it is outside them. */
export function keepFocusedRow(scroller: () => HTMLElement | undefined, indexOfKey: (key: string) => number) {
  return (range: Range): number[] => {
    const indexes = defaultRangeExtractor(range);
    const list = scroller();
    const active = document.activeElement;
    if (!list || !active || active === list || !list.contains(active) || indexes.length === 0) return indexes;
    const key = active.closest<HTMLElement>('[data-key]')?.dataset.key;
    const index = key === undefined ? -1 : indexOfKey(key);
    if (index < 0 || index >= range.count || indexes.includes(index)) return indexes;
    return index < indexes[0]! ? [index, ...indexes] : [...indexes, index];
  };
}

/** The rendered items without a focused row kept apart from them: the range on screen, for what it loads. */
export function withoutKeptRow<T extends { index: number }>(items: T[]): T[] {
  let from = 0;
  let to = items.length;
  if (to > 1 && items[1]!.index - items[0]!.index > 1) from = 1;
  if (to - from > 1 && items[to - 1]!.index - items[to - 2]!.index > 1) to -= 1;
  return from === 0 && to === items.length ? items : items.slice(from, to);
}

/**
 * Gives focus back to an element inside `rows` that lost it because its row was moved (taken out and
 * put back in one update), not because the person went elsewhere: a click elsewhere moves no row.
 */
export function keepFocusThroughMoves(rows: HTMLElement): () => void {
  let blurred: HTMLElement | undefined;
  const onFocusOut = (event: FocusEvent) => {
    blurred = event.relatedTarget === null && event.target instanceof HTMLElement ? event.target : undefined;
  };
  const onFocusIn = () => (blurred = undefined);
  // Called with every record of the update that moved the row, so a batch without its removal means none.
  const observer = new MutationObserver((records) => {
    const element = blurred;
    blurred = undefined;
    if (!element?.isConnected) return;
    const active = document.activeElement;
    if (active !== null && active !== document.body) return;
    const moved = records.some((record) => [...record.removedNodes].some((node) => node.contains(element)));
    if (moved) element.focus({ preventScroll: true });
  });
  observer.observe(rows, { childList: true });
  rows.addEventListener('focusout', onFocusOut);
  rows.addEventListener('focusin', onFocusIn);
  return () => {
    observer.disconnect();
    rows.removeEventListener('focusout', onFocusOut);
    rows.removeEventListener('focusin', onFocusIn);
  };
}
