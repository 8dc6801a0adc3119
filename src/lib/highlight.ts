// Syntax highlighting for code blocks in rendered Markdown, in a worker (highlightWorker.ts) started the
// first time a code block needs it, so highlight.js neither weighs on the first load nor runs on the
// main thread. What comes back is checked here: only highlight.js's spans go in as they are, anything
// else through DOMPurify.
import type { HighlightReply, HighlightRequest } from './highlightWorker';

/** Longer blocks stay plain: even off the main thread, the page would hold megabytes of spans. */
const MAX_HIGHLIGHT_CHARS = 1_000_000;

let worker: Worker | undefined;
let nextId = 0;
const pending = new Map<number, (html: string | undefined) => void>();

function highlightWorker(): Worker | undefined {
  if (worker) return worker;
  if (typeof Worker === 'undefined') return undefined;
  try {
    worker = new Worker(new URL('./highlightWorker.ts', import.meta.url), { type: 'module', name: 'highlight' });
  } catch {
    return undefined;
  }
  worker.onmessage = (event: MessageEvent<HighlightReply>) => {
    pending.get(event.data.id)?.(event.data.html);
    pending.delete(event.data.id);
  };
  // Its chunk could not be loaded (offline before it was cached): the code stays plain; a later block tries again.
  worker.onerror = () => {
    for (const resolve of pending.values()) resolve(undefined);
    pending.clear();
    worker?.terminate();
    worker = undefined;
  };
  return worker;
}

/**
 * Lines [from, to) of `code` highlighted as `lang` (guessed when it names none or one highlight.js does
 * not know), as HTML safe for `innerHTML`, each line's spans closed at its end; undefined when it
 * cannot be. The whole block is highlighted (once) so a comment opened earlier is coloured right.
 */
export async function highlightedRange(
  code: string,
  lang: string,
  from = 0,
  to = Infinity,
): Promise<string | undefined> {
  const cached = highlightedRangeKnown(code, lang, from, to);
  if (cached !== undefined) return cached;
  const target = code.length <= MAX_HIGHLIGHT_CHARS ? highlightWorker() : undefined;
  if (!target) return undefined;
  const id = nextId++;
  const html = await new Promise<string | undefined>((resolve) => {
    pending.set(id, resolve);
    target.postMessage({ id, code, lang, from, to } satisfies HighlightRequest);
  });
  // hljs escapes the text it wraps; sanitizing anything else keeps the one rule: only sanitized HTML goes in.
  // DOMPurify is loaded only then (it comes with the Markdown pipeline, which the first screen does without).
  const checked =
    html === undefined || isHighlightSpansOnly(html) ? html : (await import('./markdown')).sanitizeHtml(html);
  if (checked !== undefined) remember(code, lang, from, to, checked);
  return checked;
}

/**
 * Checked HTML of ranges highlighted before, per block (its language and whole code, compared exactly),
 * least recently used first out. A row scrolled away and back puts its coloured lines in at once,
 * without the code's trip to the worker (which keeps only the last few blocks) and without showing
 * plain text first. Bounded by characters held (code and HTML, about 2 bytes each).
 */
const KNOWN_MAX_CHARS = 4_000_000;
const known = new Map<string, Map<string, string>>();
let knownChars = 0;

// Keyed by the code itself (a string key is hashed once and compared exactly), then language and range.
const rangeKey = (lang: string, from: number, to: number) => `${lang} ${from}-${to}`;

/** Lines [from, to) of `code` as `highlightedRange` gave them before, or undefined (ask it). */
export function highlightedRangeKnown(code: string, lang: string, from: number, to = Infinity): string | undefined {
  const ranges = known.get(code);
  const html = ranges?.get(rangeKey(lang, from, to));
  if (html !== undefined) {
    known.delete(code);
    known.set(code, ranges!);
  }
  return html;
}

function remember(code: string, lang: string, from: number, to: number, html: string): void {
  const key = code;
  if (key.length + html.length > KNOWN_MAX_CHARS / 4) return;
  let ranges = known.get(key);
  if (!ranges) {
    ranges = new Map();
    knownChars += key.length;
  } else known.delete(key);
  known.set(key, ranges);
  const range = rangeKey(lang, from, to);
  knownChars += html.length - (ranges.get(range)?.length ?? 0);
  ranges.set(range, html);
  for (const [oldKey, oldRanges] of known) {
    if (knownChars <= KNOWN_MAX_CHARS || oldKey === key) break;
    known.delete(oldKey);
    knownChars -= oldKey.length;
    for (const h of oldRanges.values()) knownChars -= h.length;
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

/** Highlights every not yet highlighted `pre > code` under `root`. Leaves plain text on any failure. */
export async function highlightCodeIn(root: ParentNode): Promise<void> {
  const blocks = Array.from(root.querySelectorAll<HTMLElement>('pre > code:not([data-highlighted])'));
  for (const block of blocks) {
    block.dataset.highlighted = 'pending';
    const text = block.textContent ?? '';
    const lang = /(?:^|\s)language-([\w+#.-]+)/.exec(block.className)?.[1] ?? '';
    const html = await highlightedRange(text, lang);
    if (!block.isConnected || block.textContent !== text) continue;
    if (html !== undefined) {
      block.innerHTML = html;
      block.classList.add('hljs');
    }
    block.dataset.highlighted = html !== undefined ? 'yes' : 'skipped';
  }
}
