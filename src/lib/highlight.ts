// Syntax highlighting for code blocks in rendered Markdown. highlight.js is loaded on demand, the first
// time a code block is on screen, so it never weighs on the first load.
import type { HLJSApi } from 'highlight.js';
import { sanitizeHtml } from './markdown';

const MAX_HIGHLIGHT_CHARS = 40_000;

let loading: Promise<HLJSApi> | undefined;

async function loadHighlighter(): Promise<HLJSApi> {
  const [core, ...languages] = await Promise.all([
    import('highlight.js/lib/core'),
    import('highlight.js/lib/languages/bash'),
    import('highlight.js/lib/languages/c'),
    import('highlight.js/lib/languages/cpp'),
    import('highlight.js/lib/languages/css'),
    import('highlight.js/lib/languages/diff'),
    import('highlight.js/lib/languages/dockerfile'),
    import('highlight.js/lib/languages/go'),
    import('highlight.js/lib/languages/ini'),
    import('highlight.js/lib/languages/java'),
    import('highlight.js/lib/languages/javascript'),
    import('highlight.js/lib/languages/json'),
    import('highlight.js/lib/languages/markdown'),
    import('highlight.js/lib/languages/plaintext'),
    import('highlight.js/lib/languages/python'),
    import('highlight.js/lib/languages/rust'),
    import('highlight.js/lib/languages/shell'),
    import('highlight.js/lib/languages/sql'),
    import('highlight.js/lib/languages/typescript'),
    import('highlight.js/lib/languages/xml'),
    import('highlight.js/lib/languages/yaml'),
  ]);
  const names = [
    'bash',
    'c',
    'cpp',
    'css',
    'diff',
    'dockerfile',
    'go',
    'ini',
    'java',
    'javascript',
    'json',
    'markdown',
    'plaintext',
    'python',
    'rust',
    'shell',
    'sql',
    'typescript',
    'xml',
    'yaml',
  ];
  const hljs = core.default;
  names.forEach((name, i) => hljs.registerLanguage(name, languages[i]!.default));
  return hljs;
}

function highlighter(): Promise<HLJSApi> {
  loading ??= loadHighlighter().catch((error: unknown) => {
    loading = undefined; // a failed chunk load (offline) may succeed later
    throw error;
  });
  return loading;
}

/** highlight.js, loaded once; undefined when its chunk cannot be loaded (offline). */
export async function codeHighlighter(): Promise<HLJSApi | undefined> {
  try {
    return await highlighter();
  } catch {
    return undefined;
  }
}

/** The language of a code block that names none, guessed from its start only (guessing tries every language). */
export function guessLanguage(hljs: HLJSApi, code: string): string | undefined {
  try {
    return hljs.highlightAuto(code.slice(0, 3_000)).language;
  } catch {
    return undefined;
  }
}

/** The only tags highlight.js writes around the (escaped) code. */
const HIGHLIGHT_TAG = /<span class="[\w -]{1,80}">|<\/span>/g;

/**
 * Whether `html` holds no tag but highlight.js's `<span class="…">` and `</span>`: then it is text in
 * spans with a class and nothing else, as safe as sanitized. Checked in one pass; DOMPurify over the
 * thousands of spans of a long block cost more than highlighting it.
 */
export function isHighlightSpansOnly(html: string): boolean {
  return !html.replace(HIGHLIGHT_TAG, '').includes('<');
}

/** `code` highlighted as `language`, as safe HTML; undefined when it cannot be. */
export function highlightedHtml(hljs: HLJSApi, code: string, language: string): string | undefined {
  if (!hljs.getLanguage(language)) return undefined;
  try {
    const html = hljs.highlight(code, { language, ignoreIllegals: true }).value;
    return isHighlightSpansOnly(html) ? html : sanitizeHtml(html);
  } catch {
    return undefined;
  }
}

/** Highlights every not yet highlighted `pre > code` under `root`. Leaves plain text on any failure. */
export async function highlightCodeIn(root: ParentNode): Promise<void> {
  const blocks = Array.from(root.querySelectorAll<HTMLElement>('pre > code:not([data-highlighted])'));
  if (blocks.length === 0) return;
  let hljs: HLJSApi;
  try {
    hljs = await highlighter();
  } catch {
    return;
  }
  for (const block of blocks) {
    if (!block.isConnected || block.dataset.highlighted) continue;
    const text = block.textContent ?? '';
    // Very long blocks stay plain: highlighting them would stall the main thread.
    if (text.length > MAX_HIGHLIGHT_CHARS) {
      block.dataset.highlighted = 'skipped';
      continue;
    }
    const lang = /(?:^|\s)language-([\w+#.-]+)/.exec(block.className)?.[1];
    try {
      const result =
        lang && hljs.getLanguage(lang)
          ? hljs.highlight(text, { language: lang, ignoreIllegals: true })
          : hljs.highlightAuto(text);
      // hljs escapes the text it wraps; sanitizing again keeps the one rule: only sanitized HTML goes in.
      block.innerHTML = isHighlightSpansOnly(result.value) ? result.value : sanitizeHtml(result.value);
      block.classList.add('hljs');
    } catch {
      // leave the plain text
    }
    block.dataset.highlighted = 'yes';
  }
}
