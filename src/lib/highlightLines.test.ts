// Highlighted code cut into lines that stand alone: a piece of a long block put in the page by itself
// is coloured as it is in the whole block (a comment or string opened in an earlier piece included).
import hljs from 'highlight.js/lib/core';
import typescript from 'highlight.js/lib/languages/typescript';
import { describe, expect, it } from 'vitest';
import { isHighlightSpansOnly } from './highlight';
import { highlightedLines } from './highlightLines';

hljs.registerLanguage('typescript', typescript);

/** The text a line of HTML shows (entities as highlight.js writes them). */
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&');

describe('highlightedLines', () => {
  it('keeps a block comment opened in one 100-line piece coloured in the next', () => {
    const code = [
      ...Array.from({ length: 98 }, (_, i) => `const a${i} = ${i};`),
      '/* a comment that starts in the first piece',
      'and goes on: const notCode = 1;',
      'still the comment */',
      'const after = "a string";',
    ].join('\n');
    const lines = highlightedLines(hljs.highlight(code, { language: 'typescript' }).value);
    expect(lines).toHaveLength(102);
    expect(lines.map(text)).toEqual(code.split('\n'));
    // Line 100 (the second piece's first) is inside the comment: wholly in a comment span of its own.
    expect(lines[99]).toBe('<span class="hljs-comment">and goes on: const notCode = 1;</span>');
    expect(lines[100]).toBe('<span class="hljs-comment">still the comment */</span>');
    expect(lines[101]).toContain('<span class="hljs-string">&quot;a string&quot;</span>');
    // Every line is balanced and only spans.
    for (const line of lines) {
      expect(isHighlightSpansOnly(line)).toBe(true);
      expect(line.split('<span').length - 1).toBe(line.split('</span>').length - 1);
    }
  });

  it('keeps a template string spanning lines inside its span, nested spans reopened in order', () => {
    const code = 'const s = `one ${\nvalue\n} two\nthree`;\nlet x = 1;';
    const lines = highlightedLines(hljs.highlight(code, { language: 'typescript' }).value);
    expect(lines.map(text)).toEqual(code.split('\n'));
    expect(lines[1]).toMatch(/^<span class="hljs-string"><span class="hljs-subst">value<\/span><\/span>$/);
    expect(lines[3]).toMatch(/^<span class="hljs-string">three`<\/span>;$/);
    expect(lines[4]).toContain('<span class="hljs-keyword">let</span>');
  });

  it('gives one line for text with no newline, and an empty last line for a final newline', () => {
    expect(highlightedLines('a &lt; b')).toEqual(['a &lt; b']);
    expect(highlightedLines('a\n')).toEqual(['a', '']);
    expect(highlightedLines('')).toEqual(['']);
  });
});
