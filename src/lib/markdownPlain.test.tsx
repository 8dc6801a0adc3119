// Plain sentences skip marked and DOMPurify (markdown.ts, plainMarkdownHtml): the page must show them
// exactly as marked does, and anything Markdown could change must still go through marked.
import { Marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { plainMarkdownHtml, renderMarkdown } from './markdown';

const marked = new Marked({ gfm: true, breaks: true, async: false });

/** The DOM `html` makes, as HTML without the newlines between blocks. */
function dom(html: string): string {
  const template = document.createElement('template');
  template.innerHTML = html;
  for (const node of [...template.content.childNodes])
    if (node.nodeType === 3 && !node.textContent?.trim()) node.remove();
  return template.innerHTML.replace(/<br>\n/g, '<br>');
}

describe('plain text', () => {
  it('renders as marked renders it: paragraphs, line breaks, escaped quotes', () => {
    for (const text of [
      'Deploy the server.',
      'Check the logs: the build failed (twice) at 3 pm, 40% done?',
      'First line\nsecond line',
      'One paragraph.\n\nAnother one, with "quotes" and it\'s fine.',
      '\n\nLeading and trailing blank lines\n\n\n',
      'Trailing spaces  \nnext line',
      'A dash - inside, and/or a slash.',
    ]) {
      const plain = plainMarkdownHtml(text);
      expect(plain, text).toBeDefined();
      expect(dom(plain!), text).toBe(dom(marked.parse(text) as string));
      expect(renderMarkdown(text)).toBe(plain);
    }
  });

  it('leaves anything Markdown could change to marked', () => {
    for (const text of [
      '*a*',
      'a_b_',
      '# Heading',
      '- item',
      '1. item',
      '> quote',
      '    code',
      'Title\n---',
      'Title\n===',
      'see https://example.com',
      'see www.example.com',
      'mail me@example.com',
      'a | b',
      '<b>bold</b>',
      'a & b',
      'tab\there',
      '`code`',
      '[link](x)',
      'a\\b',
    ])
      expect(plainMarkdownHtml(text), text).toBeUndefined();
  });
});
