import { describe, expect, it } from 'vitest';
import { shareToText } from './pendingShare';

describe('the composer text of a share', () => {
  it('is the shared words, then the link unless the words hold it already', () => {
    expect(shareToText({ title: 'A page', text: 'Look at this', url: 'https://example.org/a' })).toBe(
      'Look at this\nhttps://example.org/a',
    );
    expect(shareToText({ title: '', text: 'Read https://example.org/a', url: 'https://example.org/a' })).toBe(
      'Read https://example.org/a',
    );
  });

  it('names a shared page by its title when no words came with it (a browser shares title and link)', () => {
    expect(shareToText({ title: 'An interesting page', text: '', url: 'https://example.org/a' })).toBe(
      'An interesting page\nhttps://example.org/a',
    );
    expect(shareToText({ title: 'Only a title', text: ' ', url: '' })).toBe('Only a title');
  });

  it('is empty for a file shared alone', () => {
    expect(shareToText({ title: '', text: '', url: '' })).toBe('');
  });
});
