import { describe, expect, it } from 'vitest';
import { appendPasted, composeMessage, longTextSummary, planOutgoing, previewLine } from './longText';

describe('long texts in the composer', () => {
  it('sends what was typed, then the pasted text exactly as it was', () => {
    const log = '  indented first line\nsecond\n';
    expect(composeMessage('', log)).toBe(log);
    expect(composeMessage('Why does this fail?  \n', log)).toBe(`Why does this fail?\n\n${log}`);
    expect(composeMessage('just typed', '')).toBe('just typed');
    expect(appendPasted('', 'a')).toBe('a');
    expect(appendPasted('a', 'b')).toBe('a\nb');
    expect(appendPasted('a\n', 'b')).toBe('a\nb');
  });

  it('sends a text that does not fit in a frame as a file, keeping the typed words as the message', () => {
    const fits = (t: string) => t.length <= 100;
    expect(planOutgoing('hi', 'x'.repeat(50), fits)).toEqual({ kind: 'text', text: `hi\n\n${'x'.repeat(50)}` });
    expect(planOutgoing('hi', 'x'.repeat(200), fits)).toEqual({
      kind: 'attachment',
      text: 'hi',
      file: 'x'.repeat(200),
    });
    expect(planOutgoing('  ', 'x'.repeat(200), fits)).toEqual({ kind: 'attachment', text: '', file: 'x'.repeat(200) });
    // Typed (edited) into the textbox itself: the whole text is the file.
    expect(planOutgoing('y'.repeat(200), '', fits)).toEqual({ kind: 'attachment', text: '', file: 'y'.repeat(200) });
  });

  it('describes the collapsed text by its lines, size and first line', () => {
    const bytes = (n: number) => `${n} B`;
    expect(longTextSummary('a\nb\n', bytes)).toBe('2 lines · 4 B');
    expect(longTextSummary('é', bytes)).toBe('1 line · 2 B');
    expect(previewLine('\n\n   first line  \nsecond')).toBe('first line');
    expect(previewLine('x'.repeat(300), 10)).toBe('xxxxxxxxx…');
  });
});
