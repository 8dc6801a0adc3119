import { Show, createSignal, createUniqueId } from 'solid-js';
import { Markdown } from './Markdown';
import { firstLine } from './author';

/** The model's reasoning, above its answer: one line until the person asks for all of it. */
export function Reasoning(props: { text: string; final: boolean }) {
  const [open, setOpen] = createSignal(false);
  const bodyId = createUniqueId();
  return (
    <div class="reasoning" classList={{ open: open() }}>
      <div class="reasoning-head">
        <span class="reasoning-label">Reasoning</span>
        <Show when={!open()}>
          <span class="reasoning-line">{firstLine(props.text, 200)}</span>
        </Show>
        <button
          type="button"
          class="reasoning-toggle"
          aria-expanded={open()}
          aria-controls={bodyId}
          onClick={() => setOpen(!open())}
        >
          {open() ? 'Hide reasoning' : 'Show reasoning'}
        </button>
      </div>
      <div id={bodyId} class="reasoning-body" hidden={!open()}>
        <Show when={open()}>
          <Markdown text={props.text} final={props.final} />
        </Show>
      </div>
    </div>
  );
}
