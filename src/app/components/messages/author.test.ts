import { describe, expect, it } from 'vitest';
import { authorName, firstLine } from './author';

describe('authorName', () => {
  it('names each role', () => {
    expect(authorName('user')).toBe('You');
    expect(authorName('assistant')).toBe('Hermes');
    expect(authorName('cron')).toBe('Reminder');
    expect(authorName('system')).toBe('System');
  });
});

describe('firstLine', () => {
  it('takes the first line with text, trimmed', () => {
    expect(firstLine('\n\n  hello world  \nsecond')).toBe('hello world');
  });
  it('shortens long lines with an ellipsis', () => {
    const line = firstLine('x'.repeat(300), 10);
    expect(line).toHaveLength(10);
    expect(line.endsWith('…')).toBe(true);
  });
  it('is empty for empty text', () => {
    expect(firstLine('')).toBe('');
  });
});
