import { describe, expect, it } from 'vitest';
import { createArrivingText } from './arrivingText';

describe('the text received ahead of the store', () => {
  // That it is a signal (a bubble follows it) is MessageItem.test.tsx's: Solid reacts only in the dom project.
  it('holds the newest text per message until taken back', () => {
    const arriving = createArrivingText();
    arriving.set('m1', 'a');
    arriving.set('m1', 'ab');
    arriving.set('m2', 'other');
    expect(arriving.get('m1')).toBe('ab');
    arriving.set('m1', undefined);
    expect(arriving.get('m1')).toBeUndefined();
    expect(arriving.get('m2')).toBe('other');
    arriving.clear(); // the session ended
    expect(arriving.get('m2')).toBeUndefined();
  });

  it('keeps only the 20 messages given a text most recently (a stream that never ended is let go)', () => {
    const arriving = createArrivingText();
    for (let i = 1; i <= 25; i++) arriving.set(`m${i}`, `text ${i}`);
    arriving.set('m6', 'still streaming'); // given again: the newest now
    arriving.set('m26', 'text 26');
    expect(arriving.get('m5')).toBeUndefined();
    expect(arriving.get('m7')).toBeUndefined();
    expect(arriving.get('m6')).toBe('still streaming');
    expect(arriving.get('m8')).toBe('text 8');
    expect(arriving.get('m26')).toBe('text 26');
  });
});
