import { afterEach, describe, expect, it, vi } from 'vitest';

// The app runs Solid's browser build (reactive); Node would resolve the server build.
vi.mock('solid-js', async () => {
  // @ts-expect-error the browser build has no .d.ts of its own; its types are solid-js's.
  return await import('solid-js/dist/solid.js');
});
const { createRoot, createSignal } = await import('solid-js');
const { useBottomPin } = await import('./bottomPin');

// The pin watches the scroller's size; nothing here resizes it.
vi.stubGlobal(
  'ResizeObserver',
  class {
    observe() {}
    disconnect() {}
  },
);

let dispose: (() => void) | undefined;
afterEach(() => dispose?.());

/** A scroller 500 px tall over `height` px of list, scrollTop clamped as a browser does. */
function scrollerOf(height: () => number) {
  let top = 0;
  return {
    clientHeight: 500,
    get scrollHeight() {
      return height();
    },
    get scrollTop() {
      return top;
    },
    set scrollTop(value: number) {
      top = Math.max(0, Math.min(value, height() - 500));
    },
  };
}

function pinOver(initialHeight: number) {
  const [height, setHeight] = createSignal(initialHeight);
  const [keys, setKeys] = createSignal(['a', 'b']);
  const scroller = scrollerOf(height);
  let pin!: ReturnType<typeof useBottomPin>;
  dispose = createRoot((d) => {
    pin = useBottomPin({ scroller: () => scroller as unknown as HTMLElement, totalSize: height, keys });
    return d;
  });
  return { pin, scroller, setHeight, setKeys };
}

describe('useBottomPin', () => {
  it('follows the newest message while the list grows under a reader at the bottom', () => {
    const { pin, scroller, setHeight } = pinOver(5000);
    expect(scroller.scrollTop).toBe(4500);
    setHeight(5600);
    expect(scroller.scrollTop).toBe(5100);
    expect(pin.atEnd()).toBe(true);
  });

  it('lets a reader who scrolled up go, even when the list grows before their scroll event', () => {
    const { pin, scroller, setHeight, setKeys } = pinOver(5000);
    // The reader scrolls up; the browser fires the scroll event with the next frame, and before that a
    // row is put in and measured.
    scroller.scrollTop = 2000;
    setHeight(5300);
    expect(scroller.scrollTop).toBe(2000);
    expect(pin.atEnd()).toBe(false);
    // A new message then gets a pill instead of a jump.
    setKeys(['a', 'b', 'c']);
    expect(pin.unseen()).toBe(true);
    expect(scroller.scrollTop).toBe(2000);
  });

  it('keeps a reader a few px from the bottom at the end', () => {
    const { pin, scroller, setHeight } = pinOver(5000);
    scroller.scrollTop = 4460;
    setHeight(5200);
    expect(pin.atEnd()).toBe(true);
    expect(scroller.scrollTop).toBe(4700);
  });

  it('stays at the end when the list gets shorter and the browser moves scrollTop up to its end', () => {
    const { pin, scroller, setHeight } = pinOver(5000);
    // The pin and the browser's clamp put the reader at the new end.
    setHeight(4800);
    expect(scroller.scrollTop).toBe(4300);
    setHeight(4900);
    expect(pin.atEnd()).toBe(true);
    expect(scroller.scrollTop).toBe(4400);
  });
});
