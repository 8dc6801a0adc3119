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
      { text: ' docs.' },
    ]);
    expect(markedRuns('**bold `code` inside**')).toEqual([{ text: 'bold code inside', mark: 'strong' }]);
  });

  it('reads as stripMarkdownMarks does, and leaves what is not a mark', () => {
    for (const text of [
      '**Echo:** hello\n\nYour message has **1** words.\n\n_— Iris demo agent_',
      'call some_function_name now, 2*3*4 = 24, a * b',
      '## Plan\n> quoted\n- one',
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
