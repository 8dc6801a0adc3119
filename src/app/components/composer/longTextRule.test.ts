import { describe, expect, it } from 'vitest';
import { countLines, isLongText } from './longTextRule';

describe('a long text', () => {
  it('counts lines, a final newline starting none', () => {
    expect(countLines('')).toBe(0);
    expect(countLines('a')).toBe(1);
    expect(countLines('a\n')).toBe(1);
    expect(countLines('a\nb\n\nc')).toBe(4);
    expect(countLines('x\n'.repeat(3000))).toBe(3000);
    expect(countLines('x\n'.repeat(3000), 10)).toBe(10);
  });

  it('collapses long pastes, by characters or by lines', () => {
    expect(isLongText('short')).toBe(false);
    expect(isLongText('x'.repeat(5000))).toBe(true);
    expect(isLongText('x\n'.repeat(50))).toBe(true);
    expect(isLongText('x\n'.repeat(48))).toBe(false);
  });
});
