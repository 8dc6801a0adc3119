import { describe, expect, it } from 'vitest';
import { safeColor, textOn, trimIcon } from './channelLook';

describe('channel look', () => {
  it('accepts only plain hex colours', () => {
    expect(safeColor('#3b82f6')).toBe('#3b82f6');
    expect(safeColor('#FFF')).toBe('#FFF');
    expect(safeColor('red')).toBeUndefined();
    expect(safeColor('url(https://evil.example/x.png)')).toBeUndefined();
    expect(safeColor('#fff;background:url(x)')).toBeUndefined();
    expect(safeColor(42)).toBeUndefined();
  });

  it('keeps whole emoji when trimming an icon', () => {
    expect(trimIcon(' 👩‍👩‍👧‍👦 family ')).toBe('👩‍👩‍👧‍👦');
    expect(trimIcon('✈️', 1)).toBe('✈️');
    expect(trimIcon('   ')).toBe('');
  });

  it('picks readable text on a swatch', () => {
    expect(textOn('#f59e0b')).toBe('#000000');
    expect(textOn('#1d2027')).toBe('#ffffff');
  });
});
