import {
  Index,
  Show,
  createEffect,
  createMemo,
  createSignal,
  onCleanup,
  onMount,
  useContext,
  type Accessor,
} from 'solid-js';
import { highlightedRange, highlightedRangeKnown } from '../../../lib/highlight';
import { safeLanguage } from '../../../lib/safeText';
import { chunkLines, firstLines, lineCount } from '../../../lib/markdownSegments';
import { cutText } from '../../../lib/cutText';
import { createCopyLabel } from './copyText';
import { MessageListContext } from './listContext';
import { createProgressive } from './progressive';
import { COLLAPSE_AFTER_CHARS, COLLAPSE_AFTER_LINES, COLLAPSED_LINES, PREVIEW_CHARS, showAllLabel } from './collapse';

/** Code is put in the page and highlighted in pieces of this many lines, each in its own task. */
const CHUNK_LINES = 100;
/** A piece this short is laid out even off screen (it costs little, and then its row is measured right). */
const FEW_LINES = 40;

/**
 * A fenced code block of a message: its language, Copy (always the whole code), long blocks (by lines
 * or by characters) collapsed with "Show all N lines", and highlighting once the text is final: the
 * whole block in the highlighting worker, put in 100 lines at a time as each piece comes on screen. The
 * code goes in as text; only checked (or sanitized) highlighter output as HTML.
 */
export function CodeBlock(props: {
  code: string;
  lang: string;
  final: boolean;
  /** Where the message list keeps this block's Show all, so it stays open when its row is mounted again. */
  openKey?: string;
  /**
   * The block is in a message shown cut, whose own "Show all N lines" opens everything: it offers no Show
   * all of its own (two of them, one inside the other, read as one, and the outer seemed to do nothing).
   */
  inPreview?: boolean;
}) {
  const lang = createMemo(() => safeLanguage(props.lang));
  const lines = createMemo(() => lineCount(props.code));
  const list = useContext(MessageListContext);
  const [ownOpen, setOwnOpen] = createSignal(false);
  const open = () => (list && props.openKey ? list.isOpen(props.openKey) : ownOpen());
  const setOpen = (value: boolean) => {
    if (!list || !props.openKey) setOwnOpen(value);
    else if (list.isOpen(props.openKey) !== value) list.toggleOpen(props.openKey);
  };
  const collapsible = () => lines() > COLLAPSE_AFTER_LINES || props.code.length > COLLAPSE_AFTER_CHARS;
  const collapsed = () => collapsible() && !open();
  const preview = createMemo(() => {
    const lines = firstLines(props.code, COLLAPSED_LINES);
    return { text: cutText(lines, PREVIEW_CHARS), insideLine: lines.length > PREVIEW_CHARS };
  });
  const shown = () => (collapsed() ? preview().text : props.code);
  const chunks = createMemo(() => chunkLines(shown(), CHUNK_LINES));
  const count = createProgressive(() => chunks().length, 2, 4);
  const [copyLabel, copyCode] = createCopyLabel('Copy code');
  let code!: HTMLElement;

  // The whole block is highlighted (a comment spanning pieces is coloured right), but a preview cut
  // inside a line is highlighted as it is shown: the whole line's colours would put it all back.
  const highlighter = createChunkHighlighter(
    () => code,
    lang,
    () => (collapsed() && preview().insideLine ? preview().text : props.code),
  );

  return (
    <div class="md-code">
      <div class="md-code-bar">
        {lang() ? <span class="md-code-lang">{lang()}</span> : <span />}
        <button type="button" class="md-copy" onClick={() => void copyCode(props.code)}>
          {copyLabel()}
        </button>
      </div>
      {/* Focusable, so a keyboard can scroll a long line sideways (as the table region does). */}
      <pre tabindex="0">
        <code ref={code} class={lang() ? `language-${lang()}` : undefined}>
          <Index each={chunks().slice(0, count())}>
            {(chunk, index) => (
              <CodeChunk text={chunk()} firstLine={index * CHUNK_LINES} final={props.final} highlighter={highlighter} />
            )}
          </Index>
        </code>
      </pre>
      <Show when={collapsible() && !props.inPreview}>
        <button
          type="button"
          class="md-code-more"
          aria-expanded={open()}
          onClick={() => {
            // The rest comes below the lines the person read: the list keeps them where they are.
            if (!open()) list?.holdPlace();
            setOpen(!open());
          }}
        >
          {open() ? 'Show fewer lines' : showAllLabel(lines(), props.code.length)}
        </button>
      </Show>
    </div>
  );
}

interface ChunkHighlighter {
  /** Highlights `el` (holding `text`, lines from `firstLine`) once it is on screen; returns a function that forgets it. */
  watch(el: HTMLElement, text: string, firstLine: number): () => void;
}

/**
 * One observer and one queue per block: each piece on screen asks the worker for its lines (the
 * worker highlights the whole block once, so a comment spanning pieces is coloured right).
 */
function createChunkHighlighter(
  code: () => HTMLElement,
  lang: Accessor<string>,
  whole: Accessor<string>,
): ChunkHighlighter {
  const waiting = new Map<Element, { text: string; firstLine: number }>();
  const queue: HTMLElement[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let observer: IntersectionObserver | undefined;

  const schedule = () => {
    if (queue.length && timer === undefined) timer = setTimeout(() => void next(), 0);
  };

  const next = async () => {
    timer = undefined;
    const el = queue.shift();
    if (!el) return;
    const piece = waiting.get(el);
    if (piece && el.isConnected) {
      const to = piece.firstLine + lineCount(piece.text);
      const html = await highlightedRange(whole(), lang(), piece.firstLine, to);
      if (html !== undefined && waiting.get(el) === piece) put(el, piece.text, html);
      if (waiting.get(el) === piece) {
        waiting.delete(el);
        observer?.unobserve(el);
      }
    }
    schedule();
  };

  const put = (el: HTMLElement, text: string, html: string) => {
    el.innerHTML = text.endsWith('\n') ? `${html}\n` : html;
    code().classList.add('hljs');
    code().dataset.highlighted = 'yes';
  };

  onCleanup(() => {
    observer?.disconnect();
    if (timer !== undefined) clearTimeout(timer);
  });

  return {
    watch(el, text, firstLine) {
      // Coloured before (this row scrolled away and back): in at once, in the same frame as the row.
      const html = highlightedRangeKnown(whole(), lang(), firstLine, firstLine + lineCount(text));
      if (html !== undefined) {
        put(el, text, html);
        return () => {};
      }
      if (typeof IntersectionObserver === 'undefined') return () => {};
      observer ??= new IntersectionObserver(
        (entries) => {
          for (const entry of entries) {
            if (!entry.isIntersecting || !waiting.has(entry.target) || queue.includes(entry.target as HTMLElement))
              continue;
            queue.push(entry.target as HTMLElement);
          }
          schedule();
        },
        { rootMargin: '400px 0px' },
      );
      waiting.set(el, { text, firstLine });
      observer.observe(el);
      return () => {
        waiting.delete(el);
        observer?.unobserve(el);
      };
    },
  };
}

/** A piece of the code, as text; highlighted in place when final and on screen. */
function CodeChunk(props: { text: string; firstLine: number; final: boolean; highlighter: ChunkHighlighter }) {
  let el!: HTMLSpanElement;
  onMount(() => {
    createEffect(() => {
      const text = props.text;
      el.textContent = text;
      if (!props.final) return;
      onCleanup(props.highlighter.watch(el, text, props.firstLine));
    });
  });
  // A short piece (a collapsed block's lines) is always laid out: its placeholder size would be a guess.
  return <span ref={el} class="md-code-chunk" classList={{ 'md-code-few': lineCount(props.text) <= FEW_LINES }} />;
}
