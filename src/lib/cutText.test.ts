import { describe, expect, it } from 'vitest';
import { cutText } from './cutText';

describe('cutText', () => {
  it('keeps a short text, cuts after a word near the end, and never splits a surrogate pair', () => {
    expect(cutText('short', 10)).toBe('short');
    expect(cutText('one two three four five six', 25)).toBe('one two three four five…');
    // No space in its last tenth: cut where asked.
    expect(cutText('x'.repeat(50), 20)).toBe(`${'x'.repeat(20)}…`);
    // The 20th character is the first half of 😀: the cut goes before it, not through it.
    const emoji = `${'x'.repeat(19)}😀😀`;
    expect(cutText(emoji, 20)).toBe(`${'x'.repeat(19)}…`);
    expect(cutText(emoji, 21)).toBe(`${'x'.repeat(19)}😀…`);
  });
});
