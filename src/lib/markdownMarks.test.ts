import { describe, expect, it } from 'vitest';
import { stripMarkdownMarks } from './markdownMarks';

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
