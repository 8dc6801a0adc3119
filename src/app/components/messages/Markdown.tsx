import {
  Index,
  Match,
  Show,
  Switch,
  createEffect,
  createMemo,
  createRenderEffect,
  createSignal,
  on,
  useContext,
} from 'solid-js';
import {
  lineCount,
  markdownChars,
  previewSegments,
  reuseSegments,
  segmentGrown,
  type Segment,
  type Segmentation,
} from '../../../lib/markdownSegments';
import { highlightCodeIn } from '../../../lib/highlight';
import { stripMarkdownMarks } from '../../../lib/markdownMarks';
import { plainTextHtml } from '../../../lib/safeText';
import { CodeBlock } from './CodeBlock';
import { COLLAPSED_LINES, HUGE_CHARS, HUGE_PREVIEW_LINES, PREVIEW_CHARS, showAllLabel } from './collapse';
import { copyText } from './copyText';
import { growHtml } from './growHtml';
import { markdownModule } from './markdownModule';
import { MessageListContext } from './listContext';
import { createProgressive } from './progressive';
import './Markdown.css';

/**
 * Untrusted Markdown, rendered through `renderMarkdown` (the only HTML ever put in `innerHTML`), piece
 * by piece (`segmentMarkdown`): a streamed update re-renders only the last piece, a huge text renders
 * a few pieces per task, and fenced code blocks are `CodeBlock`s (collapsed when long, Copy copies all).
 */
export function Markdown(props: {
  text: string;
  final?: boolean;
  class?: string;
  /** The message's id: the list keeps what the person opened in it (Show all) while its row is away. */
  openKey?: string;
  /**
   * A finished text this says is long shows its first `previewLines` until the person asks for all
   * (the person's own long pastes, which the composer kept collapsed too), whatever its size.
   */
  long?: { is: (text: string) => boolean; previewLines: number };
}) {
  const final = () => props.final !== false;
  const list = useContext(MessageListContext);
  // A text the person watched stream in stays whole once it is final.
  const [ownWhole, setOwnWhole] = createSignal(!final());
  const wholeKey = () => (props.openKey ? `${props.openKey}:all` : undefined);
  const whole = () => ownWhole() || (!!list && !!wholeKey() && list.isOpen(wholeKey()!));
  const setWhole = () => {
    const key = wholeKey();
    if (list && key) {
      if (!list.isOpen(key)) list.toggleOpen(key);
      // "Show all N lines" is all of them: the code blocks in it open too (their own Show all was hidden).
      all().forEach((segment, index) => {
        const codeKey = `${props.openKey}:code:${index}`;
        if (segment.kind === 'code' && !list.isOpen(codeKey)) list.toggleOpen(codeKey);
      });
    } else setOwnWhole(true);
  };
  // A streamed update only grows the text: only its tail is split again (segmentGrown), and the
  // pieces that did not change stay the same objects, so they are not rendered again.
  let split: Segmentation | undefined;
  let previous: Segment[] = [];
  const all = createMemo(() => {
    split = segmentGrown(split, props.text);
    return (previous = reuseSegments(previous, split.segments.slice()));
  });
  const long = createMemo(() => !!props.long?.is(props.text));
  const collapsed = createMemo(() => final() && !whole() && (long() || markdownChars(all()) > HUGE_CHARS));
  const segments = createMemo(() =>
    collapsed()
      ? previewSegments(all(), long() ? props.long!.previewLines : HUGE_PREVIEW_LINES, COLLAPSED_LINES, PREVIEW_CHARS)
      : all(),
  );
  const count = createProgressive(() => segments().length, 3, 2);

  const onClick = async (event: MouseEvent) => {
    // "Copy code" of a code block inside a list or quote (rendered as HTML, not as a CodeBlock).
    const button = (event.target as Element | null)?.closest<HTMLButtonElement>('button[data-md-copy]');
    if (!button || !(event.currentTarget as Element).contains(button)) return;
    const code = button.closest('.md-code')?.querySelector('pre code');
    const ok = await copyText(code?.textContent ?? '');
    button.textContent = ok ? 'Copied' : 'Copy failed';
    setTimeout(() => {
      if (button.isConnected) button.textContent = 'Copy code';
    }, 1500);
  };

  return (
    <div class={`md ${props.class ?? ''}`} onClick={(event) => void onClick(event)}>
      <Index each={segments().slice(0, count())}>
        {(segment, index) => (
          <Switch>
            <Match when={segment().kind === 'code' && (segment() as Extract<Segment, { kind: 'code' }>)}>
              {(code) => (
                <CodeBlock
                  code={code().text}
                  lang={code().lang}
                  final={final() || code().closed}
                  openKey={props.openKey && `${props.openKey}:code:${index}`}
                  inPreview={collapsed()}
                />
              )}
            </Match>
            <Match when={segment().kind === 'md'}>
              <MarkdownPiece
                text={segment().text}
                final={final()}
                tail={index === segments().length - 1}
                cut={index < segments().length - 1 && !segment().text.endsWith('\n')}
              />
            </Match>
          </Switch>
        )}
      </Index>
      <Show when={collapsed()}>
        <button type="button" class="md-more" onClick={setWhole}>
          {showAllLabel(lineCount(props.text), props.text.length)}
        </button>
      </Show>
    </div>
  );
}

/**
 * One Markdown piece. Finished pieces are rendered once (cached); the streaming tail each time it grows.
 * Until the pipeline has loaded (markdownModule.ts), the piece is its text, plain.
 */
function MarkdownPiece(props: {
  text: string;
  final: boolean;
  tail: boolean;
  /** The piece ends inside a line (one longer than a piece, markdownSegments.ts): the next goes on with no gap. */
  cut: boolean;
}) {
  let root!: HTMLDivElement;
  const streaming = () => !props.final && props.tail;
  const html = createMemo(() => {
    const markdown = markdownModule();
    if (!markdown) return plainTextHtml(stripMarkdownMarks(props.text));
    return streaming() ? markdown.renderMarkdown(props.text) : markdown.renderMarkdownCached(props.text);
  });
  /** The HTML the piece holds, as put in (undefined once highlighting changed it). */
  let shown: string | undefined;
  const put = (el: HTMLDivElement) => {
    root = el;
    createRenderEffect(() => {
      const next = html();
      // html() is DOMPurify-sanitized Markdown (src/lib/markdown.ts) or escaped text; growHtml only
      // appends text to what it put in before.
      if (shown === undefined || !growHtml(el, shown, next)) el.innerHTML = next;
      shown = next;
    });
  };
  createEffect(
    on([html, () => !streaming(), () => markdownModule() !== undefined], ([, done, rendered]) => {
      // Re-highlighting on every streamed update would be wasted work: wait for the final text.
      if (done && rendered) {
        shown = undefined;
        void highlightCodeIn(root);
      }
    }),
  );
  return <div ref={put} class="md-piece" classList={{ 'md-piece-cut': props.cut }} />;
}
