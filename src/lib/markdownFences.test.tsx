// Fenced code inside other blocks is marked's to parse (markdownSegments.ts splits top-level fences only).
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown';

describe('code fences marked closes', () => {
  it('a closing fence with a tab after it ends the block, inside a list too', () => {
    // Seen in agents' replies: a tab after the fence. marked before 18.3 kept the fence line as code.
    const html = renderMarkdown('1. Run it:\n   ```\n   make\n   ```\t\n2. Then check\n');
    const template = document.createElement('template');
    template.innerHTML = html;
    expect(template.content.querySelector('pre')?.textContent?.trim()).toBe('make');
    expect(template.content.querySelectorAll('li')[1]?.textContent).toBe('Then check');
  });
});
