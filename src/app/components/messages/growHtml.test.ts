// @vitest-environment happy-dom
// The streamed piece grown in place ends as the same DOM as putting the new HTML in whole.
import { describe, expect, it } from 'vitest';
import { growHtml, grownText } from './growHtml';

function grow(prev: string, next: string): { grown: boolean; root: HTMLDivElement; text: Node | null } {
  const root = document.createElement('div');
  root.innerHTML = prev;
  const text = root.querySelector('p, li, em, code')?.firstChild ?? null;
  return { grown: growHtml(root, prev, next), root, text };
}

const parsed = (html: string) => {
  const root = document.createElement('div');
  root.innerHTML = html;
  return root.innerHTML;
};

describe('growHtml', () => {
  it.each([
    ['a paragraph', '<p>w1 w2</p>\n', '<p>w1 w2 w3 w4</p>\n'],
    [
      'the last item of a list',
      '<ul>\n<li>one</li>\n<li>tw</li>\n</ul>\n',
      '<ul>\n<li>one</li>\n<li>two, three</li>\n</ul>\n',
    ],
    ['escaped characters', '<p>it</p>\n', '<p>it&#39;s &quot;a &lt;b&gt;&quot; &amp; c</p>\n'],
  ])('appends the words of %s to the text node already there', (_, prev, next) => {
    const { grown, root } = grow(prev, next);
    expect(grown).toBe(true);
    expect(root.innerHTML).toBe(parsed(next));
  });

  it('keeps the same text node (the browser keeps what it laid out of it)', () => {
    const { grown, root, text } = grow('<p>w1</p>\n', '<p>w1 w2</p>\n');
    expect(grown).toBe(true);
    expect(root.querySelector('p')!.firstChild).toBe(text);
  });

  it.each([
    ['new markup', '<p>w1</p>\n', '<p>w1 <em>w2</em></p>\n'],
    ['a new paragraph', '<p>w1</p>\n', '<p>w1</p>\n<p>w2</p>\n'],
    ['a changed start', '<p>w1 w2</p>\n', '<p>w0 w2 w3</p>\n'],
    ['a shorter text', '<p>w1 w2</p>\n', '<p>w1</p>\n'],
    ['an entity marked does not write', '<p>a</p>\n', '<p>a &nbsp;b</p>\n'],
  ])('does nothing for %s (the caller puts the HTML in whole)', (_, prev, next) => {
    const { grown, root } = grow(prev, next);
    expect(grown).toBe(false);
    expect(root.innerHTML).toBe(parsed(prev));
  });

  it('does nothing when the piece no longer holds what was put in (highlighted, or changed by hand)', () => {
    const root = document.createElement('div');
    root.innerHTML = '<pre><code><span class="hljs-keyword">const</span></code></pre>\n';
    expect(growHtml(root, '<pre><code>const</code></pre>\n', '<pre><code>const x</code></pre>\n')).toBe(false);
    expect(grownText('<p>a</p>', '<p>a b</p>')).toEqual({ tail: '</p>', added: ' b' });
  });
});
