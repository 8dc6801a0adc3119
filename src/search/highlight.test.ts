import { describe, expect, it } from 'vitest';
import { highlight, snippet } from './highlight';

const marked = (parts: { text: string; mark: boolean }[]) => parts.filter((p) => p.mark).map((p) => p.text);

describe('highlight', () => {
  it('marks whole words matching a term, the last term as a prefix', () => {
    const parts = highlight('Deploy the server, then deploy again.', 'deploy serv');
    expect(marked(parts)).toEqual(['Deploy', 'server', 'deploy']);
    expect(parts.map((p) => p.text).join('')).toBe('Deploy the server, then deploy again.');
  });

  it('matches across case and accents but keeps the original spelling', () => {
    expect(marked(highlight('Un café crème', 'creme cafe'))).toEqual(['café', 'crème']);
  });

  it('keeps markup-looking text as plain text', () => {
    const parts = highlight('<img src=x onerror=alert(1)> hello', 'hello');
    expect(parts).toEqual([
      { text: '<img src=x onerror=alert(1)> ', mark: false },
      { text: 'hello', mark: true },
    ]);
  });

  it('returns the text unmarked for an empty query', () => {
    expect(highlight('abc', '  ')).toEqual([{ text: 'abc', mark: false }]);
  });
});

describe('snippet', () => {
  it('cuts a long text around the first match with ellipses', () => {
    const text = 'lorem '.repeat(100) + 'the needle is here ' + 'ipsum '.repeat(100);
    const parts = snippet(text, 'needle', 80);
    const joined = parts.map((p) => p.text).join('');
    expect(joined.startsWith('… ')).toBe(true);
    expect(joined.endsWith(' …')).toBe(true);
    expect(joined.length).toBeLessThanOrEqual(86);
    expect(marked(parts)).toEqual(['needle']);
  });

  it('keeps a short text whole, whitespace collapsed', () => {
    expect(
      snippet('a\n\n  needle', 'needle')
        .map((p) => p.text)
        .join(''),
    ).toBe('a needle');
  });
});

describe('snippet word boundaries', () => {
  it('never starts or ends inside a word, whatever the window', () => {
    const words = Array.from({ length: 120 }, (_, i) => `word${i}x`);
    words[60] = 'needle';
    const text = words.join(' ');
    for (const max of [40, 57, 80, 111, 160]) {
      const joined = snippet(text, 'needle', max)
        .map((p) => p.text)
        .join('');
      const inner = joined.replace(/^… /, '').replace(/ …$/, '');
      for (const w of inner.split(' ')) expect(words, `window ${max}: "${w}" in "${joined}"`).toContain(w);
      expect(joined).toContain('needle');
    }
  });
});
