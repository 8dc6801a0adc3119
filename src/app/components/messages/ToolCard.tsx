import { Show, For, createSignal, createUniqueId, onCleanup, createEffect } from 'solid-js';
import type { ActivityRow } from '../../../store/schema';
import { ToolIcon } from './icons';
import { useMessageList } from './listContext';
import { formatDuration } from './time';
import { cutText } from '../../../lib/cutText';
import { COLLAPSE_AFTER_CHARS, PREVIEW_CHARS } from './collapse';
import { createCopyLabel } from './copyText';

/** Ticks every 100 ms while `running()` is true; the running timer's clock. */
function useNow(running: () => boolean) {
  const [now, setNow] = createSignal(Date.now());
  createEffect(() => {
    if (!running()) return;
    const timer = setInterval(() => setNow(Date.now()), 100);
    onCleanup(() => clearInterval(timer));
  });
  return now;
}

/** An ended call's mark and words; `done`: it finished, how is not known (an agent's own records): no tick, no cross. */
const ENDED = { ok: ['✓', 'Done'], done: ['', 'Finished'], failed: ['✕', 'Failed'] } as const;

/** One tool call of a turn: name, preview, progress notes, a timer, then the outcome and its output. */
export function ToolCard(props: { tool: ActivityRow }) {
  const list = useMessageList();
  const [open, setOpen] = createSignal(false);
  const outputId = createUniqueId();
  const unfinished = () => (props.tool.state ?? 'running') === 'running';
  // A tool whose turn is over never got its end: it stopped, it is not running any more.
  const running = () => unfinished() && !list.turnClosed(props.tool.turn);
  const stopped = () => unfinished() && !running();
  const now = useNow(running);
  const name = () => props.tool.name || 'tool';
  const outcome = () => ENDED[props.tool.state === 'ok' || props.tool.state === 'done' ? props.tool.state : 'failed'];
  const stateLabel = () => (running() ? 'Running' : stopped() ? 'Stopped' : outcome()[1]);
  const elapsed = () => formatDuration(Math.max(0, (now() - props.tool.ts) / 1000));
  const hasDetails = () => !!props.tool.output || !!(props.tool.args && Object.keys(props.tool.args).length);

  return (
    <div
      class="tool-card"
      data-state={stopped() ? 'stopped' : (props.tool.state ?? 'running')}
      role="group"
      aria-label={`Tool ${name()}`}
    >
      <div class="tool-head">
        <ToolIcon />
        <span class="tool-name">{name()}</span>
        <span class="tool-state" classList={{ ok: props.tool.state === 'ok', failed: props.tool.state === 'failed' }}>
          <Show
            when={running()}
            fallback={
              <Show when={stopped() ? '–' : outcome()[0]}>{(glyph) => <span aria-hidden="true">{glyph()}</span>}</Show>
            }
          >
            <span class="tool-spinner" aria-hidden="true" />
          </Show>
          <span class="tool-state-text">{stateLabel()}</span>
          <Show
            when={running()}
            fallback={
              <Show when={props.tool.duration !== undefined}>
                <span class="tool-duration"> · {formatDuration(props.tool.duration!)}</span>
              </Show>
            }
          >
            <span class="tool-duration tool-timer"> · {elapsed()}</span>
          </Show>
        </span>
      </div>
      <Show when={props.tool.preview}>
        {/* Its first lines show (its CSS): more text is never seen, yet all of it was laid out (a megabyte, seconds). */}
        <pre class="tool-preview">{cutText(props.tool.preview!, PREVIEW_CHARS)}</pre>
      </Show>
      <Show when={props.tool.notes?.length}>
        <ul class="tool-notes">
          <For each={props.tool.notes}>{(note) => <li dir="auto">{note}</li>}</For>
        </ul>
      </Show>
      <Show when={!unfinished() && hasDetails()}>
        <button
          type="button"
          class="tool-toggle"
          aria-expanded={open()}
          aria-controls={outputId}
          onClick={() => setOpen(!open())}
        >
          {open() ? 'Hide output' : 'Show output'}
        </button>
        <div id={outputId} class="tool-output" hidden={!open()}>
          <Show when={open()}>
            <Show when={props.tool.args && Object.keys(props.tool.args).length}>
              <pre class="tool-args">{cutText(JSON.stringify(props.tool.args, null, 2), COLLAPSE_AFTER_CHARS)}</pre>
            </Show>
            <Show when={props.tool.output} fallback={<p class="tool-empty">No output.</p>}>
              {(output) => <ToolOutput text={output()} />}
            </Show>
          </Show>
        </div>
      </Show>
    </div>
  );
}

/**
 * A call's output in its scrolling box: its first COLLAPSE_AFTER_CHARS characters when it is longer (a
 * gateway's megabyte, laid out whole in a box 240 px tall, froze the lane for seconds), and a Copy of all.
 */
function ToolOutput(props: { text: string }) {
  const [copyLabel, copy] = createCopyLabel('Copy output');
  return (
    <>
      <pre>{cutText(props.text, COLLAPSE_AFTER_CHARS)}</pre>
      <Show when={props.text.length > COLLAPSE_AFTER_CHARS}>
        <p class="tool-cut">
          Showing the first {COLLAPSE_AFTER_CHARS.toLocaleString('en-US')} of{' '}
          {props.text.length.toLocaleString('en-US')} characters.{' '}
          <button type="button" class="link-button" onClick={() => void copy(props.text)}>
            {copyLabel()}
          </button>
        </p>
      </Show>
    </>
  );
}
