import { describe, expect, it } from 'vitest';
import { isHighlightSpansOnly } from './highlight';

describe('isHighlightSpansOnly', () => {
  it('accepts highlight.js output: escaped text in spans with a class', () => {
    expect(
      isHighlightSpansOnly(
        '<span class="hljs-keyword">const</span> a = <span class="hljs-string">&quot;&lt;b&gt;&quot;</span>;',
      ),
    ).toBe(true);
    expect(isHighlightSpansOnly('<span class="hljs-title function_">f</span>() &gt; 1 &amp;&amp; x')).toBe(true);
  });

  it('refuses any other tag or attribute, however it is hidden', () => {
    for (const html of [
      '<img src=x onerror=alert(1)>',
      '<span class="a" onclick="x">b</span>',
      '<span class="a"><script>alert(1)</script></span>',
      '<<span class="x">script>alert(1)</script>',
      '<span class=a>b</span>',
      '<span class="a">b</span><a href="javascript:x">c</a>',
      '<span class="a">b</span><',
    ])
      expect(isHighlightSpansOnly(html), html).toBe(false);
  });
});
