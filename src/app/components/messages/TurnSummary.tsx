import { Show, createUniqueId } from 'solid-js';
import type { ActivityRow } from '../../../store/schema';
import { TURN_CHEVRON_PATH } from '../shell/headIconPaths';
import { ActivityList } from './ActivityList';
import { useMessageList } from './listContext';
import { ReasoningBody } from './Reasoning';
import { activityLabel, thoughtLabel } from './turnLabels';

function Chevron() {
  return (
    <svg class="turn-chevron" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
      <path fill="currentColor" d={TURN_CHEVRON_PATH} />
    </svg>
  );
}

/**
 * A turn's work in one line above its reply: "Thought for 2 s ›" and "Used 2 tools · 24 ms ›" (live:
 * "Running word_count…"), each expanding in place to the reasoning or to the tool cards. The line is
 * there from the reply's first text on, so what arrives with the end (the reasoning, the last tool's
 * outcome) changes the words in it and never pushes text the reader is on.
 */
export function TurnSummary(props: {
  /** What the open/closed state is remembered by while the row scrolls in and out of view. */
  id: string;
  turn?: string;
  items: ActivityRow[];
  reasoning?: string;
  thoughtMs?: number;
  streaming: boolean;
  hasText: boolean;
}) {
  const list = useMessageList();
  const toolsId = createUniqueId();
  const reasoningId = createUniqueId();
  const toolsKey = () => `${props.id}:tools`;
  const reasoningKey = () => `${props.id}:reasoning`;
  const running = () =>
    props.items.filter(
      (i) => i.kind === 'tool' && (i.state ?? 'running') === 'running' && !(props.turn && list.turnClosed(props.turn)),
    );
  const runningLabel = () => `Running ${running().at(-1)?.name || 'a tool'}…`;
  // The model reasons before its first text: the line says so live and shows the reasoning as it
  // streams; the first text closes it (above nothing read yet) and the line becomes "Thought for…".
  const thinking = () => props.streaming && !props.hasText && !!props.reasoning;
  const liveKey = () => `${props.id}:reasoning-live`;
  const reasoningOpen = () => (thinking() ? !list.isOpen(liveKey()) : list.isOpen(reasoningKey()));
  const shown = () => props.items.length > 0 || !!props.reasoning || (props.streaming && props.hasText);

  return (
    <Show when={shown()}>
      <div class="turn-summary">
        <div class="turn-line">
          <Show when={props.reasoning}>
            <button
              type="button"
              class="turn-toggle"
              classList={{ running: thinking() }}
              aria-expanded={reasoningOpen()}
              aria-controls={reasoningId}
              onClick={() => list.toggleOpen(thinking() ? liveKey() : reasoningKey())}
            >
              <Show when={thinking()}>
                <span class="tool-spinner" aria-hidden="true" />
              </Show>
              <span>{thinking() ? 'Thinking…' : thoughtLabel(props.thoughtMs)}</span>
              <Chevron />
            </button>
          </Show>
          <Show when={props.items.length > 0}>
            <button
              type="button"
              class="turn-toggle"
              classList={{ running: running().length > 0 }}
              aria-expanded={list.isOpen(toolsKey())}
              aria-controls={toolsId}
              onClick={() => list.toggleOpen(toolsKey())}
            >
              <Show when={running().length > 0}>
                <span class="tool-spinner" aria-hidden="true" />
              </Show>
              <span>{running().length > 0 ? runningLabel() : activityLabel(props.items)}</span>
              <Chevron />
            </button>
          </Show>
          <Show when={!props.reasoning && props.items.length === 0}>
            <span class="turn-status">{props.streaming && list.paused() ? 'Paused' : 'Writing…'}</span>
          </Show>
        </div>
        <Show when={props.reasoning && reasoningOpen()}>
          <ReasoningBody id={reasoningId} text={props.reasoning!} final={!props.streaming} />
        </Show>
        <Show when={props.items.length > 0 && list.isOpen(toolsKey())}>
          <div id={toolsId}>
            <ActivityList items={props.items} />
          </div>
        </Show>
      </div>
    </Show>
  );
}
