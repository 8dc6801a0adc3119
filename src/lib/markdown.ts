// Markdown → sanitized HTML for message text and reasoning. The one place marked and DOMPurify are used.
// Everything here comes from the gateway and is untrusted: raw HTML in the source is shown as text, and
// the output is sanitized again so no script can run and nothing remote is loaded (only the app's own
// `/media/...` images).
import { Lexer, Marked, type Tokens } from 'marked';
import createDOMPurify, { type Config } from 'dompurify';
import { isPairingUrl } from './pairingLink';
import { escapeHtml, plainTextHtml, safeLanguage } from './safeText';

/** Link schemes a message may use. Relative links resolve against the app itself. */
const LINK_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);
const MEDIA_PATH = '/media/';

function baseUrl(): string {
  return typeof location === 'undefined' ? 'http://localhost/' : location.href;
}

/** A link target we keep: http(s), mailto, or a path inside the app. Returns undefined for the rest. */
export function safeLinkHref(href: string | null | undefined): string | undefined {
  if (!href) return undefined;
  const trimmed = href.trim();
  // Control characters and whitespace inside a scheme are classic filter evasions: refuse them.
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) return undefined;
  try {
    const url = new URL(trimmed, baseUrl());
    if (!LINK_PROTOCOLS.has(url.protocol)) return undefined;
    // A link into the pairing screen would replace the gateway and token: in a message it is only text.
    return isPairingUrl(trimmed, baseUrl()) ? undefined : trimmed;
  } catch {
    return undefined;
  }
}

/** An image source we load: only the app's own origin under /media/. */
export function isAllowedImageSrc(src: string | null | undefined): boolean {
  if (!src) return false;
  const trimmed = src.trim();
  if (/[\u0000-\u001f\u007f\\]/.test(trimmed)) return false;
  try {
    const origin = new URL(baseUrl()).origin;
    const url = new URL(trimmed, baseUrl());
    return url.origin === origin && url.pathname.startsWith(MEDIA_PATH) && !url.pathname.includes('..');
  } catch {
    return false;
  }
}

const marked = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  renderer: {
    // Raw HTML in a message is shown, never interpreted.
    html(token: Tokens.HTML | Tokens.Tag): string {
      return escapeHtml(token.text);
    },
    code(token: Tokens.Code): string {
      const safeLang = safeLanguage(token.lang);
      const cls = safeLang ? ` class="language-${safeLang}"` : '';
      const label = safeLang ? `<span class="md-code-lang">${escapeHtml(safeLang)}</span>` : '<span></span>';
      const text = token.text.replace(/\n$/, '');
      return (
        `<div class="md-code"><div class="md-code-bar">${label}` +
        `<button type="button" class="md-copy" data-md-copy="">Copy code</button></div>` +
        // Focusable, so a keyboard can scroll a long line sideways (as the table region below).
        `<pre tabindex="0"><code${cls}>${token.escaped ? text : escapeHtml(text)}</code></pre></div>\n`
      );
    },
    table(token: Tokens.Table): string {
      const head = token.header.map((cell) => this.tablecell(cell)).join('');
      const rows = token.rows
        .map((row) => this.tablerow({ text: row.map((cell) => this.tablecell(cell)).join('') }))
        .join('');
      // A wide table scrolls on its own; the region is focusable so keyboards can scroll it.
      return (
        `<div class="md-table" tabindex="0" role="region" aria-label="Table"><table>` +
        `<thead>${this.tablerow({ text: head })}</thead>${rows ? `<tbody>${rows}</tbody>` : ''}</table></div>\n`
      );
    },
    link(token: Tokens.Link): string {
      const inner = this.parser.parseInline(token.tokens);
      const href = safeLinkHref(token.href);
      if (!href) return inner;
      const title = token.title ? ` title="${escapeHtml(token.title)}"` : '';
      return `<a href="${escapeHtml(href)}"${title}>${inner}</a>`;
    },
    image(token: Tokens.Image): string {
      const alt = escapeHtml(token.text || 'image');
      if (isAllowedImageSrc(token.href)) {
        return `<img src="${escapeHtml(token.href.trim())}" alt="${alt}" loading="lazy">`;
      }
      // A remote image is not fetched: it becomes a link the person may choose to open.
      const href = safeLinkHref(token.href);
      return href ? `<a href="${escapeHtml(href)}">🖼 ${alt}</a>` : `<span>🖼 ${alt}</span>`;
    },
  },
});

/**
 * marked's rules, as this instance uses them (GFM blocks, inline with line breaks): the same RegExp
 * objects its tokenizers run.
 */
function markedRules(): RegExp[] {
  const { block, inline } = Lexer.rules;
  return [...Object.values(block.gfm), ...Object.values(inline.breaks)].filter(
    (rule): rule is RegExp => rule instanceof RegExp,
  );
}

/** Subjects of both string representations: V8 compiles a regex once for each. */
const WARM_SUBJECTS = ['a\n', 'a\u2014\n'];

/** Small texts through marked and DOMPurify, one feature each: their first run compiles the rest. */
const WARM_TEXTS = [
  'a',
  '*a* **b** `c`',
  '[a](https://b.org) <https://c.org>',
  '- a\n- b',
  '> a',
  '# a\n\n---',
  '| a |\n| - |\n| b |',
];

let warming = false;

/**
 * Compiles marked's rules and warms marked and DOMPurify while the page is idle, in small steps. V8
 * compiles a regex on its first runs (bytecode, then machine code, for each string representation)
 * and marked's rules are large: the first messages rendered paid about 100 ms for it in one task
 * (measured in Chromium), and the first sanitizing as much again.
 */
export function warmUpMarkdown(): void {
  if (warming) return;
  warming = true;
  const steps = [...markedRules().map(warmRule), ...WARM_TEXTS.map((text) => () => void renderMarkdown(text))];
  let next = 0;
  if (typeof requestIdleCallback !== 'function') {
    const step = () => {
      steps[next++]?.();
      if (next < steps.length) setTimeout(step, 0);
    };
    setTimeout(step, 0);
    return;
  }
  const run = (deadline: IdleDeadline) => {
    do steps[next++]?.();
    while (next < steps.length && deadline.timeRemaining() > 10);
    if (next < steps.length) requestIdleCallback(run, { timeout: 1000 });
  };
  requestIdleCallback(run, { timeout: 1000 });
}

function warmRule(rule: RegExp): () => void {
  return () => {
    for (const subject of WARM_SUBJECTS) {
      // Twice: the second run is the one that compiles machine code.
      for (let i = 0; i < 2; i++) {
        rule.lastIndex = 0;
        rule.exec(subject);
      }
    }
    rule.lastIndex = 0;
  };
}

const PURIFY_CONFIG: Config = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: [
    'style',
    'form',
    'input',
    'textarea',
    'select',
    'option',
    'iframe',
    'frame',
    'object',
    'embed',
    'video',
    'audio',
    'source',
    'track',
    'picture',
    'link',
    'meta',
    'base',
    'svg',
    'math',
    'template',
    'dialog',
  ],
  FORBID_ATTR: ['style', 'srcset', 'action', 'formaction', 'background', 'poster', 'xlink:href', 'ping', 'id', 'name'],
  ALLOW_DATA_ATTR: false,
  ADD_ATTR: ['data-md-copy'],
};

const DIRECTED_BLOCKS = new Set(['UL', 'OL', 'BLOCKQUOTE']);

let purifier: ReturnType<typeof createDOMPurify> | undefined;

/** A private DOMPurify instance so these hooks never change how anyone else's sanitizing behaves. */
function getPurifier(): ReturnType<typeof createDOMPurify> {
  if (purifier) return purifier;
  const p = createDOMPurify(window);
  p.addHook('afterSanitizeAttributes', (node) => {
    if (!(node instanceof Element)) return;
    if (node.tagName === 'A') {
      const href = safeLinkHref(node.getAttribute('href'));
      if (href) {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      } else {
        node.removeAttribute('href');
        node.removeAttribute('target');
      }
    }
    // A list, quote or table reads the way its own text does (a Hebrew list has its bullets on the right);
    // paragraphs and cells do so by CSS (Markdown.css), which also covers the text drawn without marked.
    if (DIRECTED_BLOCKS.has(node.tagName) || node.classList.contains('md-table')) node.setAttribute('dir', 'auto');
    if (node.tagName === 'IMG' && !isAllowedImageSrc(node.getAttribute('src'))) {
      node.removeAttribute('src');
    }
    // Any other URL-bearing attribute that slipped through: only keep safe links.
    for (const attr of ['src', 'href', 'xlink:href', 'formaction', 'action']) {
      const value = node.getAttribute(attr);
      if (value === null) continue;
      const ok = attr === 'src' ? isAllowedImageSrc(value) : !!safeLinkHref(value);
      if (!ok) node.removeAttribute(attr);
    }
  });
  // Set once: a config passed to each sanitize() is parsed again on every call (a quarter of its cost
  // for a short message, and a scrolled lane sanitizes several messages a frame).
  p.setConfig({ ...PURIFY_CONFIG, RETURN_TRUSTED_TYPE: false });
  purifier = p;
  return p;
}

/** Sanitizes an HTML string with the message rules (for HTML this module produced). */
export function sanitizeHtml(html: string): string {
  return getPurifier().sanitize(html) as string;
}

/**
 * A text Markdown would change in nothing but paragraphs and line breaks: words, spaces and plain
 * punctuation only (no `*_[]<>#|~&@\\` or backtick, no tab), no line that could start a list, quote,
 * heading or indented code (each starts with a letter, quote or parenthesis), no autolink.
 */
const PLAIN_CHARS = /^[\p{L}\p{N} .,;:?!'"()%/\n-]*$/u;
const PLAIN_LINE_START = /^(?:[\p{L}"'(]|$)/u;
const AUTOLINK = /:\/\/|www\./i;

/** A plain text (see PLAIN_CHARS) as marked renders it, paragraphs and line breaks, escaped; else undefined. */
export function plainMarkdownHtml(text: string): string | undefined {
  if (text.length > 10_000 || !PLAIN_CHARS.test(text) || AUTOLINK.test(text)) return undefined;
  const lines = text.split('\n');
  if (!lines.every((line) => PLAIN_LINE_START.test(line))) return undefined;
  const paragraphs = text
    .split(/\n{2,}/)
    .map((p) => p.replace(/^\n+|\n+$/g, '').replace(/ +$/gm, ''))
    .filter((p) => p !== '');
  return paragraphs.map(plainTextHtml).join('');
}

/** Renders untrusted Markdown to sanitized HTML, safe for `innerHTML`. Never throws. */
export function renderMarkdown(text: string): string {
  // Most messages are plain sentences: their HTML is their escaped text in paragraphs, safe as it is,
  // without marked and DOMPurify (a document parsed per call: a scrolled lane renders several a frame).
  const plain = plainMarkdownHtml(text ?? '');
  if (plain !== undefined) return plain;
  try {
    return sanitizeHtml(marked.parse(text ?? '', { async: false }) as string);
  } catch {
    // marked gives up on some inputs (a word of several megabytes overflows its stack). Thrown from a
    // render, that blanked the whole message list; the text is shown as it is instead.
    return plainTextHtml(text ?? '');
  }
}

const CACHE_SIZE = 400;
const cache = new Map<string, string>();

/**
 * `renderMarkdown` for finished texts, remembered (least recently used first out): rows scrolled back
 * into view, or re-mounted, skip parsing and sanitizing again. Streamed texts must not come here.
 */
export function renderMarkdownCached(text: string): string {
  const hit = cache.get(text);
  if (hit !== undefined) {
    cache.delete(text);
    cache.set(text, hit);
    return hit;
  }
  const html = renderMarkdown(text);
  cache.set(text, html);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return html;
}

const PREVIEW_CHARS = 4_000;

/** The text a person reads in rendered Markdown (for quotes and previews; of the first 4,000 characters): no markup, no HTML. */
export function markdownToText(text: string): string {
  // A <template> parses without running anything or loading images. Previews need the start only:
  // a whole 1 MB message would be a long task for one quoted line.
  const template = document.createElement('template');
  template.innerHTML = renderMarkdown(text.length > PREVIEW_CHARS ? text.slice(0, PREVIEW_CHARS) : text);
  template.content.querySelectorAll('.md-code-bar').forEach((bar) => bar.remove());
  return (template.content.textContent ?? '').trim();
}
