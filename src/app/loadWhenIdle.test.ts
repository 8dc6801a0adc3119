import { afterEach, describe, expect, it, vi } from 'vitest';
import { stepsWhenIdle } from './loadWhenIdle';

describe('stepsWhenIdle', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('runs the steps in order, one per idle callback', () => {
    const callbacks: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => callbacks.push(callback));
    const ran: number[] = [];
    stepsWhenIdle([() => ran.push(1), () => ran.push(2), () => ran.push(3)]);
    const seen: number[][] = [];
    while (callbacks.length) {
      callbacks.shift()!();
      seen.push([...ran]);
    }
    expect(seen).toEqual([[1], [1, 2], [1, 2, 3]]);
  });

  it('goes on after a step that throws', () => {
    const callbacks: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => callbacks.push(callback));
    const ran: string[] = [];
    stepsWhenIdle([
      () => {
        throw new RangeError('no such locale');
      },
      () => ran.push('second'),
    ]);
    while (callbacks.length) callbacks.shift()!();
    expect(ran).toEqual(['second']);
  });
});
