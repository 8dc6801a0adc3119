import { describe, expect, it } from 'vitest';
import { markedRuns, stripMarkdownMarks } from './markdownMarks';

describe('stripMarkdownMarks', () => {
  it('takes the marks off the demo agent’s reply, as a reader would see it', () => {
    const reply =
      '**Echo:** hello\n\nYour message has **1** words and **5** characters.\n\n```text\nhello\n```\n\n_— Iris demo agent_';
    expect(stripMarkdownMarks(reply)).toBe(
      'Echo: hello\n\nYour message has 1 words and 5 characters.\n\nhello\n\n— Iris demo agent',
    );
  });

  it('headings, quotes, bullets, links, images, code and strike-through', () => {
    expect(stripMarkdownMarks('## Plan\n> quoted\n- one\n  * two\n')).toBe('Plan\nquoted\n• one\n  • two\n');
    expect(stripMarkdownMarks('See [the docs](https://example.com) and ![a cat](cat.png).')).toBe(
      'See the docs and a cat.',
    );
    expect(stripMarkdownMarks('Run `npm test`, ~~not~~ __now__, *really*.')).toBe('Run npm test, not now, really.');
  });

  it('leaves what is not a mark: snake_case, arithmetic, a lone star, a # without a space', () => {
    for (const text of ['call some_function_name now', '2*3*4 = 24', 'a * b', '#hashtag and 5 * 3', 'file_name.ts'])
      expect(stripMarkdownMarks(text), text).toBe(text);
  });
});

describe('markedRuns', () => {
  it('cuts a text into runs that keep bold, code, italics and strikethrough, the rest taken off as stripMarkdownMarks does', () => {
    expect(markedRuns('Your message has **2** words, `npm test`, *really* ~~not~~ [docs](https://x).')).toEqual([
      { text: 'Your message has ' },
      { text: '2', mark: 'strong' },
      { text: ' words, ' },
      { text: 'npm test', mark: 'code' },
      { text: ', ' },
      { text: 'really', mark: 'em' },
      { text: ' ' },
      { text: 'not', mark: 'del' },
      { text: ' ' },
      { text: 'docs', mark: 'link' },
      { text: '.' },
    ]);
    expect(markedRuns('**bold `code` inside**')).toEqual([{ text: 'bold code inside', mark: 'strong' }]);
  });

  it('keeps the links the lane’s Markdown makes: [text](target), <address>, and bare addresses as GFM links them', () => {
    expect(markedRuns('See [the **docs**](https://example.com/a_b) or <https://x.org/y>.')).toEqual([
      { text: 'See ' },
      { text: 'the docs', mark: 'link' },
      { text: ' or ' },
      { text: 'https://x.org/y', mark: 'link' },
      { text: '.' },
    ]);
    // A bare address ends before trailing punctuation; its underscores are not emphasis.
    expect(markedRuns('Open https://example.com/some_path_here, or www.example.org.')).toEqual([
      { text: 'Open ' },
      { text: 'https://example.com/some_path_here', mark: 'link' },
      { text: ', or ' },
      { text: 'www.example.org', mark: 'link' },
      { text: '.' },
    ]);
    // Relative targets are links in the lane too; another scheme is not (markdown.ts shows its words only).
    expect(markedRuns('[notes](notes.md)')).toEqual([{ text: 'notes', mark: 'link' }]);
    expect(markedRuns('[run me](javascript:void)')).toEqual([{ text: 'run me' }]);
    // Inside code, an address stays code.
    expect(markedRuns('`curl https://x.org`')).toEqual([{ text: 'curl https://x.org', mark: 'code' }]);
  });

  it('reads as stripMarkdownMarks does, and leaves what is not a mark', () => {
    for (const text of [
      '**Echo:** hello\n\nYour message has **1** words.\n\n_— Iris demo agent_',
      'call some_function_name now, 2*3*4 = 24, a * b',
      '## Plan\n> quoted\n- one',
      'See [the docs](https://example.com), <https://x.org> and https://y.org/a_b.',
    ])
      expect(
        markedRuns(text)
          .map((run) => run.text)
          .join(''),
        text,
      ).toBe(stripMarkdownMarks(text));
    expect(markedRuns('call some_function_name now')).toEqual([{ text: 'call some_function_name now' }]);
  });
});
