import { describe, expect, it } from 'vitest';
import { textDirection } from './textDirection';

describe('textDirection', () => {
  it('reads right to left when the first letter is Hebrew, Arabic or another right-to-left script', () => {
    expect(textDirection('שלום! מה שלומך?')).toBe('rtl');
    expect(textDirection('مرحبا بك')).toBe('rtl');
    expect(textDirection('سلام، چطوری؟')).toBe('rtl'); // Persian, in Arabic script
    expect(textDirection('ܫܠܡܐ')).toBe('rtl'); // Syriac
  });

  it('is decided by the first letter, not by digits, spaces or punctuation before it', () => {
    expect(textDirection('  42. שלום')).toBe('rtl');
    expect(textDirection('"(שלום) hello"')).toBe('rtl');
    expect(textDirection('1. hello שלום')).toBe('ltr');
    expect(textDirection('Echo: שלום')).toBe('ltr');
  });

  it('reads left to right for other scripts and for a text without letters', () => {
    expect(textDirection('Hello')).toBe('ltr');
    expect(textDirection('Привет')).toBe('ltr');
    expect(textDirection('你好')).toBe('ltr');
    expect(textDirection('')).toBe('ltr');
    expect(textDirection('123 !?')).toBe('ltr');
    expect(textDirection('😀 👍')).toBe('ltr');
  });
});
